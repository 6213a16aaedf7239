/**
 * The languages a code block can be highlighted in, each grammar its own on-demand chunk (highlight.js's, run by
 * lowlight). A block with another language tag, or none, shows as plain code.
 */
import type { LanguageFn } from 'highlight.js';

type Grammar = () => Promise<{ default: LanguageFn }>;

const GRAMMARS: Record<string, Grammar> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  'c++': 'cpp',
  cs: 'csharp',
  golang: 'go',
  html: 'xml',
  js: 'javascript',
  jsx: 'javascript',
  kt: 'kotlin',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  ts: 'typescript',
  tsx: 'typescript',
  yml: 'yaml',
};

/** highlight.js's name for a code block's language tag, or null when it is not highlighted */
export function languageName(tag: string): string | null {
  const lower = tag.toLowerCase();
  const name = ALIASES[lower] ?? lower;
  return Object.hasOwn(GRAMMARS, name) ? name : null;
}

export function loadGrammar(name: string): Promise<LanguageFn> {
  return GRAMMARS[name]!().then((m) => m.default);
}
