import { useEffect, useRef, useState } from 'react';
import { roomPath } from '../lib/routes.ts';
import { copyText } from '../lib/clipboard.ts';
import { CheckIcon, CopyIcon } from './Icons.tsx';
import { t as translate, useCatalog, useT } from '../i18n/i18n.ts';

export function InviteCard({ roomName }: { roomName: string }) {
  useCatalog('room');
  const t = useT();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const link = `${window.location.origin}${roomPath(roomName)}`;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copy = async () => {
    try {
      await copyText(link);
      setCopied(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      window.alert(translate('room.invite.copyFailed'));
    }
  };

  return (
    <div className="invite-card">
      <div className="invite-label">{t('room.invite.title')}</div>
      <div className="invite-link" title={link} data-testid="invite-link">
        {link.replace(/^https?:\/\//, '')}
      </div>
      <button
        type="button"
        className={`button button-sm button-block ${copied ? 'button-success' : 'button-soft'}`}
        onClick={copy}
        data-testid="invite-copy-button"
      >
        {copied ? (
          <>
            <CheckIcon size={14} /> {t('room.invite.copied')}
          </>
        ) : (
          <>
            <CopyIcon size={14} /> {t('room.invite.copy')}
          </>
        )}
      </button>
    </div>
  );
}
