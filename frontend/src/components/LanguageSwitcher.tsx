import { useId, useState } from 'react';
import { LOCALES, isLocale } from '../i18n/locales.ts';
import { setLocale, useLocale, useT } from '../i18n/i18n.ts';

/**
 * The interface's language, chosen by the visitor (docs/i18n.md): the choice is saved in this browser and wins over
 * the browser's languages from then on. Each language is named in itself.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const t = useT();
  const locale = useLocale();
  const id = useId();
  const [switching, setSwitching] = useState(false);
  return (
    <div className={className ? `language-switcher ${className}` : 'language-switcher'}>
      <label htmlFor={id}>{t('common.language.label')}</label>
      <select
        id={id}
        value={locale}
        disabled={switching}
        data-testid="language-switcher"
        onChange={(event) => {
          const next = event.target.value;
          if (!isLocale(next)) return;
          setSwitching(true);
          setLocale(next)
            .catch(() => undefined) // offline: the catalogs did not load, the language stays as it was
            .finally(() => setSwitching(false));
        }}
      >
        {LOCALES.map((locale) => (
          <option key={locale.code} value={locale.code} lang={locale.code}>
            {locale.name}
          </option>
        ))}
      </select>
    </div>
  );
}
