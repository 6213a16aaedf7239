/**
 * `@username` mentions in a message's plain text (docs/product/messages.md, Mentions). A mention is `@` followed by the
 * member's username, compared case-insensitively, and not followed by a character that could continue a name, so
 * `@bo` does not mention `bob`. Usernames may hold spaces, so a mention is found by trying the member's own name
 * rather than by parsing a word after `@`.
 */
const NAME_CONTINUES = /[\p{L}\p{N}_-]/u;

/** whether `text` mentions the member called `username` */
export function mentionsMember(text: string, username: string): boolean {
  const name = username.trim().toLocaleLowerCase();
  if (name === '') return false;
  const lower = text.toLocaleLowerCase();
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    if (at > 0 && NAME_CONTINUES.test(lower[at - 1] ?? '')) continue; // an e-mail address, not a mention
    if (!lower.startsWith(name, at + 1)) continue;
    const next = lower[at + 1 + name.length];
    if (next === undefined || !NAME_CONTINUES.test(next)) return true;
  }
  return false;
}
