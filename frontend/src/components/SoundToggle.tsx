import { useSyncExternalStore } from 'react';
import { getSoundEnabled, setSoundEnabled, subscribeSoundEnabled } from '../lib/notificationSound.ts';
import { Tooltip } from './ui/Tooltip.tsx';
import { useT } from '../i18n/i18n.ts';

/** Sidebar header toggle for the notification sound (the preference is stored locally). */
export function SoundToggle() {
  const t = useT();
  const enabled = useSyncExternalStore(subscribeSoundEnabled, getSoundEnabled, () => true);
  return (
    <Tooltip content={enabled ? t('roomside.sound.on') : t('roomside.sound.off')} side="bottom">
      <button
        type="button"
        className="icon-button icon-button-dark sound-toggle"
        aria-label={t('roomside.sound.label')}
        aria-pressed={enabled}
        data-testid="sound-toggle"
        data-enabled={enabled}
        onClick={() => setSoundEnabled(!enabled)}
      >
        <svg
          width={18}
          height={18}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
        >
          <path d="M11 5 6 9H2v6h4l5 4z" />
          {enabled ? (
            <>
              <path d="M15.5 8.5a5 5 0 0 1 0 7" />
              <path d="M19 5a10 10 0 0 1 0 14" />
            </>
          ) : (
            <>
              <path d="m22 9-6 6" />
              <path d="m16 9 6 6" />
            </>
          )}
        </svg>
      </button>
    </Tooltip>
  );
}
