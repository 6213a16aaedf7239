import { useEffect, useRef, useState } from 'react';
import { roomPath } from '../lib/routes.ts';
import { CheckIcon, CopyIcon } from './Icons.tsx';

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch { /* fall through to the legacy path */ }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

export function InviteCard({ roomName }: { roomName: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const link = `${window.location.origin}${roomPath(roomName)}`;

  useEffect(() => () => { if (timer.current) clearTimeout(timer.current); }, []);

  const copy = async () => {
    try {
      await copyText(link);
      setCopied(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      window.alert('Failed to copy link');
    }
  };

  return (
    <div className="invite-card">
      <div className="invite-label">Invite people</div>
      <div className="invite-link" title={link} data-testid="invite-link">{link.replace(/^https?:\/\//, '')}</div>
      <button type="button" className={`button button-sm button-block ${copied ? 'button-success' : 'button-soft'}`}
        onClick={copy} data-testid="invite-copy-button">
        {copied ? <><CheckIcon size={14} /> ✓ Copied!</> : <><CopyIcon size={14} /> Copy link</>}
      </button>
    </div>
  );
}
