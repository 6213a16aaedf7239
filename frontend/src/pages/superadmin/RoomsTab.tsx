/**
 * Rooms tab: search by room name or a part of the owner's e-mail and filter Active or Expired, over every room: the
 * server searches, counts and pages (usePagedList.ts); the cards total, active, expired and total users are its
 * counts of what the search finds. Pages of 50 with extend (the prompt accepts only 1 = 7 days or 2 = 30 days) and
 * delete (a reason is required). A room's name opens the moderation viewer (ModerationViewer.tsx). ADM6.
 */
import { useCallback, useState } from 'react';
import type { AdminRoom } from '@ephemera/proto';
import { ADMIN_FILTERS, adminApi, type AdminResult, type ListQuery } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Badge, Cards, Section, StatCard, Unavailable } from './ui.tsx';
import { count, dateTimeOf, extendHoursOf, reasonOf } from './format.ts';
import { ModerationViewer } from './ModerationViewer.tsx';
import { Pager } from './Pager.tsx';
import { useDebounced, usePagedList, usePageOf } from './usePagedList.ts';
import { useT, type MessageId } from '../../i18n/i18n.ts';

const STATUS_LABEL: Record<(typeof ADMIN_FILTERS.roomStatus)[number], MessageId> = {
  active: 'admin.rooms.active',
  expired: 'admin.rooms.expired',
};

/** The texts (an ICU select on the action): Room {action} completed successfully; Failed to {action} room. */
function roomActionToast(
  t: ReturnType<typeof useT>,
  toast: TabProps['toast'],
  action: 'extend' | 'delete',
  r: AdminResult<unknown>,
): boolean {
  if (r.ok) toast.success(t('admin.rooms.actionDone', { action }));
  else toast.error(t('admin.rooms.actionFailed', { action }));
  return r.ok;
}

export function RoomsTab({ data, reload, ask, toast }: TabProps) {
  const t = useT();
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState('');
  const [viewing, setViewing] = useState<AdminRoom | null>(null);
  const search = useDebounced(query.trim());
  const [page, setPage] = usePageOf(`${search}|${status}`);
  const load = useCallback((q: ListQuery) => adminApi.rooms(q), []);
  const list = usePagedList(load, { search, status, page }, data.rooms);
  const answer = list.answer;
  const shown = answer?.rooms ?? [];
  const totals = answer?.totals;
  const after = () => void reload(['rooms', 'dashboard', 'report']);

  const extend = async (room: AdminRoom) => {
    const hours = extendHoursOf(await ask.prompt(t('admin.rooms.extendPrompt', { room: room.name })));
    if (!hours) return;
    if (roomActionToast(t, toast, 'extend', await adminApi.extendRoom(room.id, hours))) after();
  };
  const remove = async (room: AdminRoom) => {
    const reason = reasonOf(await ask.prompt(t('admin.rooms.deleteReason', { room: room.name })));
    if (!reason) return;
    if (roomActionToast(t, toast, 'delete', await adminApi.deleteRoom(room.id, reason))) after();
  };

  return (
    <>
      <Section title={t('admin.rooms.title')} testId="sa-rooms">
        <label className="sa-search">
          <span className="sa-sr-only">{t('admin.rooms.searchLabel')}</span>
          <input
            type="search"
            className="sa-input"
            placeholder={t('admin.rooms.searchPlaceholder')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="sa-room-search"
          />
        </label>
        <div className="sa-filters">
          <label>
            <span className="sa-sr-only">{t('admin.rooms.status')}</span>
            <select
              className="sa-input"
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              data-testid="sa-room-status-filter"
            >
              <option value="">{t('admin.rooms.all')}</option>
              {ADMIN_FILTERS.roomStatus.map((s) => (
                <option key={s} value={s}>
                  {t(STATUS_LABEL[s])}
                </option>
              ))}
            </select>
          </label>
        </div>
        <Cards>
          <StatCard label={t('admin.rooms.total')} value={totals ? count(totals.total) : '—'} testId="sa-rooms-total" />
          <StatCard
            label={t('admin.rooms.active')}
            value={totals ? count(totals.active) : '—'}
            testId="sa-rooms-active"
          />
          <StatCard
            label={t('admin.rooms.expired')}
            value={totals ? count(totals.expired) : '—'}
            testId="sa-rooms-expired"
          />
          <StatCard
            label={t('admin.rooms.totalUsers')}
            value={totals ? count(totals.users) : '—'}
            testId="sa-rooms-users"
          />
        </Cards>
      </Section>
      {answer ? (
        <div className="sa-table-wrap">
          <table className="sa-table" data-testid="sa-rooms-table" aria-busy={list.loading}>
            <caption className="sa-sr-only">{t('admin.rooms.caption', { page: answer.page })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.rooms.col.name')}</th>
                <th scope="col" className="sa-narrow-hide">
                  {t('admin.rooms.col.id')}
                </th>
                <th scope="col">{t('admin.rooms.col.owner')}</th>
                <th scope="col">{t('admin.rooms.col.users')}</th>
                <th scope="col">{t('admin.rooms.col.status')}</th>
                <th scope="col">{t('admin.rooms.col.expires')}</th>
                <th scope="col">{t('admin.col.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.id} data-testid="sa-room-row" data-room={r.name}>
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setViewing(r)}
                      data-testid="sa-room-open"
                    >
                      {r.name}
                    </button>
                  </td>
                  <td className="sa-mono sa-narrow-hide">{r.id}</td>
                  <td className="sa-wrap">{r.owner || <span className="sa-muted">{t('admin.rooms.unknown')}</span>}</td>
                  <td data-testid="sa-room-users">{count(r.userCount)}</td>
                  <td>
                    {r.isActive ? (
                      <Badge tone="good">{t('admin.rooms.active')}</Badge>
                    ) : (
                      <Badge tone="bad">{t('admin.rooms.expired')}</Badge>
                    )}
                  </td>
                  <td>{r.expiresAt ? dateTimeOf(r.expiresAt) : t('admin.never')}</td>
                  <td className="sa-row-actions">
                    <button
                      type="button"
                      className="button button-ghost button-sm"
                      onClick={() => void extend(r)}
                      aria-label={t('admin.rooms.extendLabel', { room: r.name })}
                      data-testid="sa-room-extend"
                    >
                      {t('admin.rooms.extend')}
                    </button>
                    <button
                      type="button"
                      className="button button-danger button-sm"
                      onClick={() => void remove(r)}
                      aria-label={t('admin.deleteLabel', { name: r.name })}
                      data-testid="sa-room-delete"
                    >
                      {t('admin.delete')}
                    </button>
                  </td>
                </tr>
              ))}
              {shown.length === 0 && (
                <tr>
                  <td colSpan={7} className="sa-muted">
                    {t('admin.rooms.none')}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
          <Pager
            page={answer.page}
            pageSize={answer.pageSize}
            total={answer.total}
            what="rooms"
            onPage={setPage}
            testId="sa-rooms-pager"
          />
        </div>
      ) : list.loading ? null : (
        <Unavailable what={t('admin.rooms.title')} />
      )}
      {answer && list.failed && (
        <p className="sa-unavailable" role="status">
          {list.failed}
        </p>
      )}
      {viewing && <ModerationViewer room={viewing} toast={toast} onClose={() => setViewing(null)} />}
    </>
  );
}
