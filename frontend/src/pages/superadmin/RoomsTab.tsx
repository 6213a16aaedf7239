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

const STATUS_LABEL = { active: 'Active', expired: 'Expired' } as const;

/** The texts: Room {action} completed successfully; Failed to {action} room. */
function roomActionToast(toast: TabProps['toast'], action: string, r: AdminResult<unknown>): boolean {
  if (r.ok) toast.success(`Room ${action} completed successfully`);
  else toast.error(`Failed to ${action} room`);
  return r.ok;
}

export function RoomsTab({ data, reload, ask, toast }: TabProps) {
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
    const hours = extendHoursOf(await ask.prompt(`Extend ${room.name} by: enter 1 for 7 days or 2 for 30 days`));
    if (!hours) return;
    if (roomActionToast(toast, 'extend', await adminApi.extendRoom(room.id, hours))) after();
  };
  const remove = async (room: AdminRoom) => {
    const reason = reasonOf(await ask.prompt(`Reason for deleting the room ${room.name}:`));
    if (!reason) return;
    if (roomActionToast(toast, 'delete', await adminApi.deleteRoom(room.id, reason))) after();
  };

  return (
    <>
      <Section title="Rooms" testId="sa-rooms">
        <label className="sa-search">
          <span className="sa-sr-only">Search rooms by name or owner</span>
          <input
            type="search"
            className="sa-input"
            placeholder="Search by room name or owner"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="sa-room-search"
          />
        </label>
        <div className="sa-filters">
          <label>
            <span className="sa-sr-only">Room status</span>
            <select
              className="sa-input"
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              data-testid="sa-room-status-filter"
            >
              <option value="">All rooms</option>
              {ADMIN_FILTERS.roomStatus.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <Cards>
          <StatCard label="Total Rooms" value={totals ? count(totals.total) : '—'} testId="sa-rooms-total" />
          <StatCard label="Active" value={totals ? count(totals.active) : '—'} testId="sa-rooms-active" />
          <StatCard label="Expired" value={totals ? count(totals.expired) : '—'} testId="sa-rooms-expired" />
          <StatCard label="Total Users" value={totals ? count(totals.users) : '—'} testId="sa-rooms-users" />
        </Cards>
      </Section>
      {answer ? (
        <div className="sa-table-wrap">
          <table className="sa-table" data-testid="sa-rooms-table" aria-busy={list.loading}>
            <caption className="sa-sr-only">Rooms, page {answer.page}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="sa-narrow-hide">
                  ID
                </th>
                <th scope="col">Owner</th>
                <th scope="col">Users</th>
                <th scope="col">Status</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
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
                  <td className="sa-wrap">{r.owner || <span className="sa-muted">Unknown</span>}</td>
                  <td data-testid="sa-room-users">{count(r.userCount)}</td>
                  <td>{r.isActive ? <Badge tone="good">Active</Badge> : <Badge tone="bad">Expired</Badge>}</td>
                  <td>{r.expiresAt ? dateTimeOf(r.expiresAt) : 'Never'}</td>
                  <td className="sa-row-actions">
                    <button
                      type="button"
                      className="button button-ghost button-sm"
                      onClick={() => void extend(r)}
                      aria-label={`Extend ${r.name}`}
                      data-testid="sa-room-extend"
                    >
                      Extend
                    </button>
                    <button
                      type="button"
                      className="button button-danger button-sm"
                      onClick={() => void remove(r)}
                      aria-label={`Delete ${r.name}`}
                      data-testid="sa-room-delete"
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
              {shown.length === 0 && (
                <tr>
                  <td colSpan={7} className="sa-muted">
                    No rooms found.
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
        <Unavailable what="Rooms" />
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
