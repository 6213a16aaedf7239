/**
 * `@username` mentions in message text (docs/product/messages.md, Mentions), one rule for the browser (marking and
 * counting) and the server (which members a message mentions, for their mention counts). A mention is `@` followed by a
 * member's username, compared case-insensitively, and not followed by a character that could continue a name, so
 * `@bo` does not mention `bob`. Usernames may hold spaces, so a mention is found by trying the members' own names
 * rather than by parsing a word after `@`; when two names fit (`@Mary` and `@Mary Ann`), the longer one wins.
 */
import { mentionText } from './markdown.ts';

const NAME_CONTINUES = /[\p{L}\p{N}_-]/u;

export interface MentionRange {
  /** index of the `@` */
  start: number;
  /** index after the name */
  end: number;
  /** the member's username as given */
  username: string;
}

/** The mentions of the given members in `text` (plain text: no Markdown is read), in order, without overlaps. */
export function findMentions(text: string, usernames: readonly string[]): MentionRange[] {
  const names = usernames
    .map((username) => ({ username, key: username.trim().toLocaleLowerCase() }))
    .filter((n) => n.key !== '')
    .sort((a, b) => b.key.length - a.key.length);
  if (names.length === 0 || !text.includes('@')) return [];
  const lower = text.toLocaleLowerCase();
  const found: MentionRange[] = [];
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    if (at > 0 && NAME_CONTINUES.test(lower[at - 1] ?? '')) continue; // an e-mail address, not a mention
    const hit = names.find((n) => {
      if (!lower.startsWith(n.key, at + 1)) return false;
      const next = lower[at + 1 + n.key.length];
      return next === undefined || !NAME_CONTINUES.test(next);
    });
    if (!hit) continue;
    const end = at + 1 + hit.key.length;
    found.push({ start: at, end, username: hit.username });
    at = end - 1;
  }
  return found;
}

/**
 * The usernames a message mentions, each once, in the order first mentioned: its Markdown read as the renderer
 * marks mentions, so a mention in code, in link text or in an address does not count (markdown.ts mentionText).
 */
export function mentionedUsernames(markdown: string, usernames: readonly string[]): string[] {
  if (!markdown.includes('@')) return [];
  return [...new Set(findMentions(mentionText(markdown), usernames).map((m) => m.username))];
}

/** whether the message `markdown` mentions the member called `username` */
export function mentionsMember(markdown: string, username: string): boolean {
  return mentionedUsernames(markdown, [username]).length > 0;
}
