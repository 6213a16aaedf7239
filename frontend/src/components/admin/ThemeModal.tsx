/**
 * Choose Theme and the Custom Theme editor (docs/product/rooms.md R31-R32): clicking a theme previews
 * it; Apply Theme keeps it (stored locally) and, for an admin or the room's creator, broadcasts it to the room.
 * A theme the room's tier does not include opens the upgrade prompt instead (custom: business only). The custom
 * editor's fields, defaults and fonts are proto's CUSTOM_THEME_DEFAULTS and CUSTOM_THEME_FONTS.
 */
import { useState } from 'react';
import {
  CUSTOM_THEME_DEFAULTS,
  CUSTOM_THEME_FONTS,
  type CustomTheme,
  type ThemeId,
  type Tier,
} from '@ephemera/proto/client';
import { Modal } from '../Modal.tsx';
import { AlertIcon, SparkIcon } from '../Icons.tsx';
import { colorsOf, themeName, themesFor } from '../../lib/themes.ts';
import { readCustomTheme } from '../../lib/roomPrefs.ts';
import type { Result } from '../../lib/commandResult.ts';
import type { AppliedTheme } from '../../hooks/useRoomTheme.ts';
import type { UpgradeFeature } from './adminDialog.ts';
import { useT, type MessageId } from '../../i18n/i18n.ts';
import { errorText } from '../../i18n/errorText.ts';

interface ThemeProps {
  tier: Tier;
  active: AppliedTheme;
  /** admin or room creator: Apply Theme also broadcasts */
  canBroadcast: boolean;
  preview(t: AppliedTheme | null): void;
  apply(t: AppliedTheme): Promise<Result>;
  onUpgrade(feature: UpgradeFeature): void;
  onCustomize(): void;
  onClose(): void;
}

function Swatch({ themeId, custom }: { themeId: ThemeId; custom: CustomTheme | null }) {
  const c = colorsOf(themeId, custom);
  return (
    <span className="theme-swatch" aria-hidden="true">
      <span style={{ background: c.sidebar }} />
      <span style={{ background: c.primary }} />
      <span style={{ background: c.sentMessage }} />
      <span style={{ background: c.receivedMessage }} />
    </span>
  );
}

/** Submit-once with the server's reason on failure. */
function useApply(apply: (t: AppliedTheme) => Promise<Result>, onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (t: AppliedTheme) => {
    setBusy(true);
    setError(null);
    const r = await apply(t);
    setBusy(false);
    if (r.ok) onDone();
    else setError(errorText(null, r.message));
  };
  return { busy, error, run };
}

export function ThemeModal({
  tier,
  active,
  canBroadcast,
  preview,
  apply,
  onUpgrade,
  onCustomize,
  onClose,
}: ThemeProps) {
  const t = useT();
  const [selected, setSelected] = useState<AppliedTheme>(active);
  const close = () => {
    preview(null);
    onClose();
  };
  const { busy, error, run } = useApply(apply, onClose);
  const pick = (id: ThemeId, allowed: boolean) => {
    if (!allowed) {
      preview(null);
      onUpgrade(id === 'custom' ? 'customTheme' : 'themes');
      return;
    }
    const next = {
      themeId: id,
      custom:
        id === 'custom' ? (active.themeId === 'custom' && active.custom ? active.custom : readCustomTheme()) : null,
    };
    setSelected(next);
    preview(next);
  };
  return (
    <Modal title={t('roomside.theme.choose')} onClose={busy ? undefined : close} size="md" testId="theme-modal">
      <div className="modal-form">
        <div className="theme-grid" role="radiogroup" aria-label={t('roomside.theme.themes')}>
          {themesFor(tier).map(({ id, allowed }) => (
            <button
              key={id}
              type="button"
              role="radio"
              aria-checked={selected.themeId === id}
              className={`theme-option${selected.themeId === id ? ' selected' : ''}${allowed ? '' : ' locked'}`}
              onClick={() => pick(id, allowed)}
              data-testid="theme-option"
              data-theme-id={id}
              data-locked={allowed ? undefined : 'true'}
            >
              <Swatch themeId={id} custom={id === 'custom' ? readCustomTheme() : null} />
              <span className="theme-name">{themeName(id)}</span>
              {!allowed && (
                <span
                  className="premium-mark"
                  title={id === 'custom' ? t('roomside.theme.businessPlan') : t('roomside.theme.premiumTheme')}
                >
                  <SparkIcon size={12} />{' '}
                  {id === 'custom' ? t('roomside.tier.business') : t('roomside.settings.premium')}
                </span>
              )}
            </button>
          ))}
        </div>
        {selected.themeId === 'custom' && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              preview(null);
              onCustomize();
            }}
            data-testid="theme-customize"
          >
            {t('roomside.theme.customize')}
          </button>
        )}
        <p className="field-hint">{canBroadcast ? t('roomside.theme.applyEveryone') : t('roomside.theme.applyYou')}</p>
        {error && (
          <div className="form-error" role="alert" data-testid="theme-error">
            <AlertIcon size={16} /> <span>{error}</span>
          </div>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-ghost" onClick={close} disabled={busy}>
            {t('roomside.action.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void run(selected)}
            disabled={busy}
            data-testid="theme-apply"
          >
            {busy ? t('roomside.theme.applying') : t('roomside.theme.apply')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** the logo field's example: an address, the same in every language */
const LOGO_PLACEHOLDER = 'https://…';

const COLOR_FIELDS: { key: Exclude<keyof CustomTheme, 'logoUrl' | 'fontFamily'>; label: MessageId }[] = [
  { key: 'primaryColor', label: 'roomside.theme.primary' },
  { key: 'sentMessageColor', label: 'roomside.theme.sentMessage' },
  { key: 'receivedMessageColor', label: 'roomside.theme.receivedMessage' },
  { key: 'sentTextColor', label: 'roomside.theme.sentText' },
  { key: 'receivedTextColor', label: 'roomside.theme.receivedText' },
  { key: 'chatBackgroundColor', label: 'roomside.theme.background' },
];

type CustomProps = Pick<ThemeProps, 'canBroadcast' | 'preview' | 'apply' | 'onClose'> & { initial: CustomTheme };

/** The Custom Theme editor (business): every change previews at once; Save & Apply keeps it. */
export function CustomThemeModal({ initial, canBroadcast, preview, apply, onClose }: CustomProps) {
  const t = useT();
  const [theme, setTheme] = useState<CustomTheme>(initial);
  const { busy, error, run } = useApply(apply, onClose);
  const close = () => {
    preview(null);
    onClose();
  };
  const update = (patch: Partial<CustomTheme>) => {
    const next = { ...theme, ...patch };
    setTheme(next);
    preview({ themeId: 'custom', custom: next });
  };
  const logoOk = theme.logoUrl === '' || /^https:\/\/[^\s"'<>]+$/.test(theme.logoUrl);
  return (
    <Modal title={t('roomside.theme.custom')} onClose={busy ? undefined : close} size="md" testId="custom-theme-modal">
      <form
        className="modal-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (logoOk) void run({ themeId: 'custom', custom: theme });
        }}
      >
        <div className="custom-theme-grid">
          {COLOR_FIELDS.map(({ key, label }) => (
            <label key={key} className="color-field">
              <input
                type="color"
                value={theme[key].toLowerCase()}
                onChange={(e) => update({ [key]: e.target.value.toUpperCase() })}
                data-testid={`custom-${key}`}
              />
              <span>
                {t(label)}
                <small className="muted">{theme[key]}</small>
              </span>
            </label>
          ))}
        </div>
        <div className="field">
          <label htmlFor="custom-font">{t('roomside.theme.font')}</label>
          <select
            id="custom-font"
            value={theme.fontFamily}
            onChange={(e) => update({ fontFamily: e.target.value })}
            data-testid="custom-fontFamily"
          >
            {CUSTOM_THEME_FONTS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="custom-logo">{t('roomside.theme.logo')}</label>
          <input
            id="custom-logo"
            type="text"
            value={theme.logoUrl}
            placeholder={LOGO_PLACEHOLDER}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={logoOk ? undefined : true}
            onChange={(e) => update({ logoUrl: e.target.value.trim() })}
            data-testid="custom-logoUrl"
          />
          <p className="field-hint" data-testid="custom-logo-note">
            {t('roomside.theme.logoNote')}
          </p>
        </div>
        {!logoOk && (
          <div className="form-error" role="alert">
            <AlertIcon size={16} /> <span>{t('roomside.theme.logoHttps')}</span>
          </div>
        )}
        <p className="field-hint">{canBroadcast ? t('roomside.theme.saveEveryone') : t('roomside.theme.saveYou')}</p>
        {error && (
          <div className="form-error" role="alert" data-testid="custom-theme-error">
            <AlertIcon size={16} /> <span>{error}</span>
          </div>
        )}
        <div className="modal-actions">
          <button
            type="button"
            className="button button-ghost"
            onClick={() => update({ ...CUSTOM_THEME_DEFAULTS })}
            disabled={busy}
          >
            {t('roomside.theme.reset')}
          </button>
          <button type="button" className="button button-ghost" onClick={close} disabled={busy}>
            {t('roomside.action.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || !logoOk}
            data-testid="custom-theme-save"
          >
            {busy ? t('roomside.theme.applying') : t('roomside.theme.saveApply')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
