/**
 * The interface's languages and how the active one is chosen (docs/i18n.md): the visitor's choice saved in this
 * browser, else the first of the browser's languages (navigator.languages) that the interface speaks, else English.
 * Pure functions, so the unit tests check the choice without a browser.
 */

/** Each language the interface speaks, named in itself (a visitor looks for their own language's name). */
export const LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;

export type Locale = (typeof LOCALES)[number]['code'];

/** English is the source: the spec's words, and the language used when no other fits. */
export const SOURCE_LOCALE: Locale = 'en';

/**
 * The catalogs' areas: one file per area and locale (locales/{locale}/{area}.json), loaded on demand, so a visitor
 * downloads only the texts of what they open, and people adding texts to different areas edit different files.
 * Every key starts with its area's name and a dot.
 */
export const AREAS = ['common', 'public', 'room', 'roomside', 'account', 'admin', 'errors'] as const;
export type Area = (typeof AREAS)[number];

/** The localStorage key of the visitor's own choice. */
export const LOCALE_STORAGE_KEY = 'ephemera.locale';

export function isLocale(value: unknown): value is Locale {
  return LOCALES.some((l) => l.code === value);
}

/** The interface's language for a BCP 47 tag ('de-AT' -> 'de'), or null when it speaks none that fits. */
export function matchLocale(tag: string): Locale | null {
  const language = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(language) ? language : null;
}

/** The saved choice when it is one of ours, else the browser's first language we speak, else English. */
export function chooseLocale(saved: string | null, browserLanguages: readonly string[]): Locale {
  if (isLocale(saved)) return saved;
  for (const tag of browserLanguages) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return SOURCE_LOCALE;
}
