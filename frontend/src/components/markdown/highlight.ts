/** Code highlighted into React elements (lowlight gives a syntax tree, never HTML); loaded with the first code block. */
import type { ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { createLowlight } from 'lowlight';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { loadGrammar } from './codeLanguages.ts';

const lowlight = createLowlight();

/** `code` highlighted as the language highlight.js calls `name` (codeLanguages.ts languageName) */
export async function highlight(code: string, name: string): Promise<ReactNode> {
  if (!lowlight.registered(name)) lowlight.register(name, await loadGrammar(name));
  return toJsxRuntime(lowlight.highlight(name, code), { Fragment, jsx, jsxs });
}
