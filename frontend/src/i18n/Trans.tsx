import { Fragment, cloneElement, type ReactElement, type ReactNode } from 'react';
import { useT, type MessageId, type MessageValues } from './i18n.ts';

/** <0>inner</0>: a numbered tag of the message, its inner text, and what follows it. */
const TAG = /<(\d+)>(.*?)<\/\1>/s;

/** Splits a translated message at its numbered tags and puts each tag's element around the tag's text. */
export function withElements(message: string, components: Record<string, ReactElement>): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = message;
  for (let match = TAG.exec(rest); match; match = TAG.exec(rest)) {
    if (match.index > 0) out.push(rest.slice(0, match.index));
    const element = components[match[1]!];
    const inner = match[2]!;
    out.push(
      element ? cloneElement(element, { key: out.length }, inner) : <Fragment key={out.length}>{inner}</Fragment>,
    );
    rest = rest.slice(match.index + match[0].length);
  }
  if (rest) out.push(rest);
  return out;
}

/**
 * A text with markup inside it: the catalog's message numbers its tags (`Read the <0>terms</0>`) and `components`
 * gives the element for each number, so a translation can move the link within its sentence.
 */
export function Trans({
  id,
  values,
  components,
}: {
  id: MessageId;
  values?: MessageValues;
  components: Record<string, ReactElement>;
}) {
  const t = useT();
  return <>{withElements(t(id, values), components)}</>;
}
