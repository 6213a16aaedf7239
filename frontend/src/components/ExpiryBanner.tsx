/**
 * The expiry banner (docs/product/rooms.md R34): hidden while 4 hours or more remain; warning,
 * critical and expired styles below that (lib/expiry.ts decides); recomputed every 60 s; dismissible (a worse level
 * shows again). Owners get an Extend button.
 */
import { useEffect, useState } from 'react';
import { EXPIRY } from '@ephemera/proto/client';
import { expiryState, expiryText, type ExpiryLevel } from '../lib/expiry.ts';
import { AlertIcon, ClockIcon, CloseIcon } from './Icons.tsx';
import { useCatalog, useT } from '../i18n/i18n.ts';

interface Props {
  expiresAt: string | null;
  onExtend?: () => void;
}

export function ExpiryBanner({ expiresAt, onExtend }: Props) {
  useCatalog('room');
  const t = useT();
  const [now, setNow] = useState(() => Date.now());
  const [dismissed, setDismissed] = useState<ExpiryLevel | null>(null);
  useEffect(() => {
    if (!expiresAt) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), EXPIRY.recomputeMs);
    return () => clearInterval(timer);
  }, [expiresAt]);

  const s = expiryState(expiresAt, now);
  if (!s || !s.visible || s.level === dismissed) return null;
  return (
    <div
      className={`expiry-banner level-${s.level}`}
      role={s.level === 'info' ? 'status' : 'alert'}
      data-testid="expiry-banner"
      data-level={s.level}
    >
      {s.level === 'info' ? <ClockIcon size={16} /> : <AlertIcon size={16} />}
      <span className="expiry-text" data-testid="expiry-text">
        {expiryText(s)}
      </span>
      {onExtend && s.level !== 'expired' && (
        <button type="button" className="button button-sm button-soft" onClick={onExtend} data-testid="expiry-extend">
          {t('room.expiry.extend')}
        </button>
      )}
      <button
        type="button"
        className="icon-button"
        onClick={() => setDismissed(s.level)}
        aria-label={t('room.expiry.dismiss')}
        data-testid="expiry-dismiss"
      >
        <CloseIcon size={14} />
      </button>
    </div>
  );
}
