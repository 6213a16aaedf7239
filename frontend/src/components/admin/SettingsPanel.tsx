/**
 * Settings - Manage your chat room (docs/product/rooms.md R23): the register banner for an
 * unregistered owner, Room Information (collapsible), Quick Actions, Owner Controls and the Danger Zone. Controls
 * are hidden by role and tier (lib/roomRules.ts adminControls); the server refuses anything else anyway.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { RoomState } from '../../state/roomState.ts';
import { adminControls } from '../../lib/roomRules.ts';
import { copyText } from '../../lib/clipboard.ts';
import { roomPath } from '../../lib/routes.ts';
import { hasAccountSession } from '../../lib/roomPrefs.ts';
import { AlertIcon, CheckIcon, ClockIcon, CloseIcon, CopyIcon, LockIcon, SparkIcon, UsersIcon } from '../Icons.tsx';
import { TrashIcon } from '../sidebar/icons.tsx';
import type { AdminDialog } from './adminDialog.ts';
import './admin.css';
import { useT } from '../../i18n/i18n.ts';
import { formatDateTime } from '../../i18n/format.ts';

interface Props {
  state: RoomState;
  roomName: string;
  open(d: AdminDialog): void;
  onClose(): void;
}

function Section({ title, children, tone }: { title: string; children: ReactNode; tone?: 'danger' }) {
  return (
    <section className={`settings-section${tone ? ` tone-${tone}` : ''}`} aria-label={title}>
      <h3 className="settings-section-title">{title}</h3>
      {children}
    </section>
  );
}

function Action({
  icon,
  label,
  hint,
  onClick,
  testId,
  premium,
  danger,
}: {
  icon: ReactNode;
  label: string;
  hint?: string;
  onClick(): void;
  testId: string;
  premium?: string;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      className={`settings-action${danger ? ' danger' : ''}`}
      onClick={onClick}
      data-testid={testId}
    >
      <span className="settings-action-icon" aria-hidden="true">
        {icon}
      </span>
      <span className="settings-action-text">
        <span>
          {label}
          {premium && (
            <span className="premium-mark" data-testid={`${testId}-premium`}>
              <SparkIcon size={12} /> {premium}
            </span>
          )}
        </span>
        {hint && <small>{hint}</small>}
      </span>
    </button>
  );
}

function CopyInvite({ roomName }: { roomName: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const copy = async () => {
    try {
      await copyText(`${window.location.origin}${roomPath(roomName)}`);
      setCopied(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      window.alert(t('roomside.settings.copyFailed'));
    }
  };
  return (
    <Action
      icon={copied ? <CheckIcon size={18} /> : <CopyIcon size={18} />}
      label={copied ? t('roomside.settings.copied') : t('roomside.settings.copyInvite')}
      onClick={() => void copy()}
      testId="settings-copy-invite"
    />
  );
}

export function SettingsPanel({ state, roomName, open, onClose }: Props) {
  const t = useT();
  const titleId = useId();
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panelRef.current?.focus();
    return () => {
      if (previous?.isConnected) previous.focus();
    };
  }, []);
  const ws = state.workspace;
  const tier = ws?.tier ?? 'free';
  const name = ws?.name ?? roomName;
  const can = adminControls(state.user, tier, ws?.expiresAt ?? null);
  const limit = ws?.settings.maxUsers ?? null;

  return (
    <section
      ref={panelRef}
      className="settings-panel"
      role="region"
      aria-labelledby={titleId}
      tabIndex={-1}
      data-testid="settings-panel"
    >
      <header className="settings-panel-header">
        <h2 id={titleId} className="settings-panel-title">
          {t('roomside.settings.title')}
        </h2>
        <button
          type="button"
          className="icon-button"
          onClick={onClose}
          aria-label={t('roomside.settings.close')}
          data-testid="settings-close"
        >
          <CloseIcon size={18} />
        </button>
      </header>
      <div className="settings-panel-body">
        {state.user?.isOwner && !hasAccountSession() && (
          <div className="register-banner" data-testid="register-banner">
            <strong>{t('roomside.settings.registerTitle')}</strong>
            <p>{t('roomside.settings.registerText')}</p>
            <button
              type="button"
              className="button button-sm button-primary"
              onClick={() => open({ kind: 'claim' })}
              data-testid="register-claim"
            >
              {t('roomside.settings.register')}
            </button>
          </div>
        )}

        <details className="settings-section settings-info" open data-testid="room-info">
          <summary className="settings-section-title">{t('roomside.settings.info')}</summary>
          <dl className="settings-facts">
            <dt>{t('roomside.settings.roomName')}</dt>
            <dd data-testid="info-room-name">{name}</dd>
            <dt>{t('roomside.settings.created')}</dt>
            <dd data-testid="info-created">{ws ? formatDateTime(ws.createdAt) : ''}</dd>
            <dt>{t('roomside.settings.expires')}</dt>
            <dd data-testid="info-expires">
              {ws?.expiresAt ? formatDateTime(ws.expiresAt) : t('roomside.settings.never')}
            </dd>
            <dt>{t('roomside.settings.activeUsers')}</dt>
            <dd data-testid="info-active-users">{`${state.onlineCount} / ${limit === null ? t('roomside.settings.unlimited') : limit}`}</dd>
          </dl>
        </details>

        <Section title={t('roomside.settings.quick')}>
          <CopyInvite roomName={name} />
          <Action
            icon={<SparkIcon size={18} />}
            label={t('roomside.settings.theme')}
            onClick={() => open({ kind: 'theme' })}
            testId="settings-change-theme"
            premium={tier === 'free' ? t('roomside.settings.premium') : undefined}
          />
        </Section>

        {can.ownerControls && (
          <Section title={t('roomside.settings.owner')}>
            <Action
              icon={<LockIcon size={18} />}
              label={ws?.isPasswordProtected ? t('roomside.password.removeTitle') : t('roomside.password.setTitle')}
              hint={t('roomside.settings.security')}
              onClick={() => open({ kind: 'password' })}
              testId="settings-password"
            />
            {can.maxUsers ? (
              <Action
                icon={<UsersIcon size={18} />}
                label={t('roomside.settings.maxUsers')}
                hint={
                  limit === null
                    ? t('roomside.settings.capacityUnlimited')
                    : t('roomside.settings.capacity', { count: limit })
                }
                onClick={() => open({ kind: 'maxUsers' })}
                testId="settings-max-users"
              />
            ) : (
              <Action
                icon={<UsersIcon size={18} />}
                label={t('roomside.settings.maxUsers')}
                hint={t('roomside.settings.capacityLabel')}
                premium={t('roomside.tier.pro')}
                onClick={() => open({ kind: 'upgrade', feature: 'maxUsers' })}
                testId="settings-max-users-locked"
              />
            )}
            {can.extend && (
              <Action
                icon={<ClockIcon size={18} />}
                label={t('roomside.extend.title')}
                hint={t('roomside.settings.extendHint')}
                onClick={() => open({ kind: 'extend' })}
                testId="settings-extend"
              />
            )}
            {can.upgrade && (
              <Action
                icon={<SparkIcon size={18} />}
                label={t('roomside.settings.upgradePlan')}
                hint={t('roomside.settings.upgradeHint')}
                onClick={() => open({ kind: 'plans' })}
                testId="settings-upgrade"
              />
            )}
          </Section>
        )}

        {can.deleteRoom && (
          <Section title={t('roomside.settings.danger')} tone="danger">
            <p className="settings-warning">
              <AlertIcon size={16} /> {t('roomside.settings.dangerText')}
            </p>
            <Action
              icon={<TrashIcon size={18} />}
              label={t('roomside.deleteRoom.title')}
              onClick={() => open({ kind: 'deleteRoom' })}
              testId="settings-delete-room"
              danger
            />
          </Section>
        )}
      </div>
    </section>
  );
}
