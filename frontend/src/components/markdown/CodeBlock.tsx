import { useEffect, useState, type ReactNode } from 'react';
import { languageName } from './codeLanguages.ts';

/** A code block's code: plain at once, highlighted once its language's grammar has loaded (same text, no jump). */
export function CodeBlock({ language, code }: { language: string; code: string }) {
  const name = languageName(language);
  const [highlighted, setHighlighted] = useState<{ code: string; nodes: ReactNode } | null>(null);
  useEffect(() => {
    if (!name) return;
    let live = true;
    import('./highlight.ts')
      .then(({ highlight }) => highlight(code, name))
      .then((nodes) => live && setHighlighted({ code, nodes }))
      .catch(() => {
        /* the grammar did not load (offline): the code stays plain */
      });
    return () => {
      live = false;
    };
  }, [code, name]);
  return (
    <code className={name ? `hljs language-${name}` : undefined} data-language={language}>
      {highlighted?.code === code ? highlighted.nodes : code}
    </code>
  );
}
