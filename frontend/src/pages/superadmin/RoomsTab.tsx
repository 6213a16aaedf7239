/**
 * Rooms tab: search by room name or owner; cards total, active, expired, total users; the first 50 rooms with extend
 * (the prompt accepts only 1 = 7 days or 2 = 30 days) and delete (a reason is required). A room's name opens the
 * moderation viewer (ModerationViewer.tsx).
 */
import { useState } from 'react';
import type { AdminRoom } from '@ephemera/proto';
import { ADMIN_LIMITS, adminApi, type AdminResult } from '../../lib/adminApi.ts';
import type { TabProps } from './tabProps.ts';
import { Badge, Cards, Section, StatCard, Unavailable } from './ui.tsx';
import { count, dateTimeOf, extendHoursOf, reasonOf } from './format.ts';
import { ModerationViewer } from './ModerationViewer.tsx';

/** The texts: Room {action} completed successfully; Failed to {action} room. */
function roomActionToast(toast: TabProps['toast'], action: string, r: AdminResult<unknown>): boolean {
  if (r.ok) toast.success(`Room ${action} completed successfully`);
  else toast.error(`Failed to ${action} room`);
  return r.ok;
}

export function RoomsTab({ data, reload, ask, toast }: TabProps) {
  const [query, setQuery] = useState('');
  const [viewing, setViewing] = useState<AdminRoom | null>(null);
  const rooms = data.rooms ?? [];
  const q = query.trim().toLowerCase();
  const shown = rooms.filter((r) => !q || r.name.toLowerCase().includes(q) || (r.owner ?? '').toLowerCase().includes(q)).slice(0, ADMIN_LIMITS.tableRows);
  const active = rooms.filter((r) => r.isActive).length;
  const users = rooms.reduce((sum, r) => sum + (r.userCount || 0), 0);
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
          <input type="search" className="sa-input" placeholder="Search by room name or owner" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="sa-room-search" />
        </label>
        <Cards>
          <StatCard label="Total Rooms" value={count(rooms.length)} testId="sa-rooms-total" />
          <StatCard label="Active" value={count(active)} testId="sa-rooms-active" />
          <StatCard label="Expired" value={count(rooms.length - active)} testId="sa-rooms-expired" />
          <StatCard label="Total Users" value={count(users)} testId="sa-rooms-users" />
        </Cards>
      </Section>
      {data.rooms ? (
        <div className="sa-table-wrap">
          <table className="sa-table" data-testid="sa-rooms-table">
            <caption className="sa-sr-only">Rooms (first {ADMIN_LIMITS.tableRows})</caption>
            <thead><tr><th scope="col">Name</th><th scope="col" className="sa-narrow-hide">ID</th><th scope="col">Owner</th><th scope="col">Users</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.id} data-testid="sa-room-row" data-room={r.name}>
                  <td><button type="button" className="link-button" onClick={() => setViewing(r)} data-testid="sa-room-open">{r.name}</button></td>
                  <td className="sa-mono sa-narrow-hide">{r.id}</td>
                  <td className="sa-wrap">{r.owner || <span className="sa-muted">Unknown</span>}</td>
                  <td data-testid="sa-room-users">{count(r.userCount)}</td>
                  <td>{r.isActive ? <Badge tone="good">Active</Badge> : <Badge tone="bad">Expired</Badge>}</td>
                  <td>{r.expiresAt ? dateTimeOf(r.expiresAt) : 'Never'}</td>
                  <td className="sa-row-actions">
                    <button type="button" className="button button-ghost button-sm" onClick={() => void extend(r)} aria-label={`Extend ${r.name}`} data-testid="sa-room-extend">Extend</button>
                    <button type="button" className="button button-danger button-sm" onClick={() => void remove(r)} aria-label={`Delete ${r.name}`} data-testid="sa-room-delete">Delete</button>
                  </td>
                </tr>
              ))}
              {shown.length === 0 && <tr><td colSpan={7} className="sa-muted">No rooms found.</td></tr>}
            </tbody>
          </table>
        </div>
      ) : <Unavailable what="Rooms" />}
      {viewing && <ModerationViewer room={viewing} toast={toast} onClose={() => setViewing(null)} />}
    </>
  );
}
