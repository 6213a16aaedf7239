/**
 * A limit on how deeply block quotes and lists nest on one line (`> > > - > …`): the parser's work grows with the
 * square of the depth (about 0.4 s for 2,000 characters of it), while no message needs more than a few levels. Past
 * MAX_NESTING, the next marker is escaped, so the rest of the line shows as text inside the deepest block.
 */
export const MAX_NESTING = 6;

/** one container marker at the start of what is left of a line: a quote, a bullet or a number */
const MARKER = /[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/y;

function capLine(line: string): string {
  let pos = 0;
  for (let depth = 0; ; depth++) {
    MARKER.lastIndex = pos;
    const m = MARKER.exec(line);
    if (!m) return line;
    if (depth === MAX_NESTING) {
      // the escape goes before the marker's punctuation (a backslash before a digit escapes nothing)
      const at = pos + m[0].length - 1;
      return `${line.slice(0, at)}\\${line.slice(at)}`;
    }
    pos += m[0].length;
  }
}

export function capNesting(text: string): string {
  return text.includes('\n') ? text.split('\n').map(capLine).join('\n') : capLine(text);
}
