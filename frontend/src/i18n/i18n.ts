/**
 * The interface's texts go through Lingui (docs/i18n.md). This module owns the one i18n instance, loads the
 * catalogs on demand (one chunk per locale and area, never in the initial JavaScript), activates the chosen
 * language, keeps <html lang> and the saved choice right, and gives components their hooks.
 */
import { use, useCallback, useSyncExternalStore } from 'react';
import { setupI18n, type Messages } from '@lingui/core';
import { LOCALE_STORAGE_KEY, chooseLocale, type Area, type Locale } from './locales.ts';
import type enCommon from './locales/en/common.json';
import type enPublic from './locales/en/public.json';
import type enRoom from './locales/en/room.json';
import type enRoomside from './locales/en/roomside.json';
import type enAccount from './locales/en/account.json';
import type enAdmin from './locales/en/admin.json';
import type enErrors from './locales/en/errors.json';

/** Every text's key: the English catalogs' keys, so a key that does not exist fails the type check. */
export type MessageId =
  | keyof typeof enCommon
  | keyof typeof enPublic
  | keyof typeof enRoom
  | keyof typeof enRoomside
  | keyof typeof enAccount
  | keyof typeof enAdmin
  | keyof typeof enErrors;

/** Values for a message's {placeholders}: numbers are formatted (and pluralised) in the active locale by Lingui. */
export type MessageValues = Record<string, string | number>;

type CatalogModule = Promise<{ default: Record<string, unknown> }>;

/** One dynamic import per locale and area: each its own chunk, downloaded when first needed. */
const CATALOGS: Record<Locale, Record<Area, () => CatalogModule>> = {
  en: {
    common: () => import('./locales/en/common.json'),
    public: () => import('./locales/en/public.json'),
    room: () => import('./locales/en/room.json'),
    roomside: () => import('./locales/en/roomside.json'),
    account: () => import('./locales/en/account.json'),
    admin: () => import('./locales/en/admin.json'),
    errors: () => import('./locales/en/errors.json'),
  },
  de: {
    common: () => import('./locales/de/common.json'),
    public: () => import('./locales/de/public.json'),
    room: () => import('./locales/de/room.json'),
    roomside: () => import('./locales/de/roomside.json'),
    account: () => import('./locales/de/account.json'),
    admin: () => import('./locales/de/admin.json'),
    errors: () => import('./locales/de/errors.json'),
  },
};

export const i18n = setupI18n();

/** The areas some screen asked for: a change of language loads these for the new language before switching. */
const wanted = new Set<Area>();
const loads = new Map<string, CatalogLoad>();

/** A catalog's download; once done it says so the way React's use() reads a settled promise without suspending. */
type CatalogLoad = Promise<void> & { status?: 'fulfilled'; value?: undefined };

/**
 * The areas whose screens show the server's refusals (i18n/errorText.ts): loading one of them loads the refusals'
 * catalog too, in parallel, so a screen that loads its area can show a refusal in the active language.
 */
const BRINGS_ALONG: Partial<Record<Area, Area[]>> = {
  roomside: ['errors'],
  account: ['errors'],
  admin: ['errors'],
};

function loadCatalog(locale: Locale, area: Area): CatalogLoad {
  const key = `${locale}/${area}`;
  let load = loads.get(key);
  if (!load) {
    const along = (BRINGS_ALONG[area] ?? []).map((other) => loadCatalog(locale, other));
    const loading: CatalogLoad = Promise.all([CATALOGS[locale][area](), ...along]).then(
      ([module]) => {
        i18n.load(locale, module.default as Messages);
        loading.status = 'fulfilled';
      },
      (error: unknown) => {
        loads.delete(key); // a failed download (offline) is tried again next time
        throw error;
      },
    );
    load = loading;
    loads.set(key, load);
  }
  return load;
}

/** Loads one area's texts for the active language (and remembers it for a later change of language). */
export function loadArea(area: Area): Promise<void> {
  wanted.add(area);
  return loadCatalog(activeLocale(), area);
}

export function activeLocale(): Locale {
  return (i18n.locale || 'en') as Locale;
}

function saveChoice(locale: Locale): void {
  try {
    globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    /* storage disabled: the choice lasts until the page is closed */
  }
}

function savedChoice(): string | null {
  try {
    return globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Switches the interface's language once every area in use is loaded for it (no half-translated screen). */
export async function setLocale(locale: Locale, { save = true } = {}): Promise<void> {
  await Promise.all([...wanted].map((area) => loadCatalog(locale, area)));
  i18n.activate(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  if (save) saveChoice(locale);
}

/** The language with these areas loaded, without saving it as the visitor's choice (tests render with this). */
export async function activateLocale(locale: Locale, areas: Area[]): Promise<void> {
  areas.forEach((area) => wanted.add(area));
  await setLocale(locale, { save: false });
}

/** Before the first render: the saved or the browser's language, with the given areas loaded. */
export function initI18n(areas: Area[] = ['common']): Promise<void> {
  areas.forEach((area) => wanted.add(area));
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return setLocale(chooseLocale(savedChoice(), languages), { save: false });
}

const subscribe = (onChange: () => void) => i18n.on('change', onChange);
const snapshot = () => activeLocale();

/** The active language; the calling component renders again when it changes. */
export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * Suspends the calling component until the area's texts are loaded in the active language. use() is called on every
 * render, loaded or not (a loaded catalog's promise reads as settled): a use() skipped on the render that retries a
 * suspended mount breaks React's hook order (its error 467, reported as 520).
 */
export function useCatalog(area: Area): void {
  const locale = useLocale();
  wanted.add(area);
  // typed as a plain promise: React reads the status field at run time, and its types have no 'maybe settled'
  use(loadCatalog(locale, area) as Promise<void>);
}

/** The text of a key in the active language; the component renders again when the language changes. */
export function useT(): (id: MessageId, values?: MessageValues) => string {
  const locale = useLocale();
  // a new function per language, so memoised children that take it render again too
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useCallback((id: MessageId, values?: MessageValues) => i18n._(id, values), [locale]);
}

/** Whether the active language's loaded catalogs hold this key (a page loads only its own areas). */
export function hasText(id: MessageId): boolean {
  return Object.hasOwn(i18n.messages, id);
}

/** Outside React (toasts built in event handlers, document titles): the text in the active language. */
export function t(id: MessageId, values?: MessageValues): string {
  return i18n._(id, values);
}
