/**
 * The online list read from the ephemeral store (presence-service.ts describes the layout): the indexed users with a
 * live connection, a page of them in id order, and the removal of an entry whose connections all lapsed.
 */
import type { OnlinePage, OnlineUser, PresenceStatus } from '@ephemera/proto';
import type { EphemeralStore } from '@ephemera/platform';
import { CONNECTION_TTL_MS, connsKey, idsKey, statusKey, usersKey } from './presence-keys.ts';

/**
 * The indexed users that have a live connection, with the status each set: one count per user, however many
 * connections they have. Users whose connections all expired without a disconnect leave the index here.
 */
export async function listLive(
  store: EphemeralStore,
  workspaceId: string,
  index: Record<string, string>,
  statuses: Record<string, string>,
  now: number,
): Promise<OnlineUser[]> {
  const ids = Object.keys(index);
  const live = await Promise.all(
    ids.map(async (id) => {
      if ((await store.zcount(connsKey(workspaceId, id), now)) > 0) return true;
      return !(await dropIfGone(store, workspaceId, id, index[id], now)); // a connection that came meanwhile counts
    }),
  );
  return ids
    .filter((_, i) => live[i])
    .map((id) => {
      const user = JSON.parse(index[id]) as OnlineUser;
      const status = (statuses[id] as PresenceStatus | undefined) ?? 'online';
      return status === user.presenceStatus ? user : { ...user, presenceStatus: status };
    });
}

/**
 * The live users after `after` in id order, at most `limit`: their ids from the room's id set (ZRANGEBYLEX), their
 * entries and statuses by name (HMGET), so a join into a room of thousands reads and checks a page, never the whole
 * index. The count is the id set's size less the entries found gone here: a user whose connections all expired
 * without a disconnect (a crashed gateway's) counts until a page or a list meets them. When the whole list fits in
 * the page every entry is checked and the count is exact.
 */
export async function pageLive(
  store: EphemeralStore,
  workspaceId: string,
  after: string | null,
  limit: number,
  now: number,
): Promise<OnlinePage> {
  const total = await store.zcard(idsKey(workspaceId));
  const users: OnlineUser[] = [];
  let gone = 0;
  let cursor = after;
  let end = false;
  while (users.length < limit) {
    const want = limit - users.length;
    // one more than wanted: whether anything follows, so a last page says so (next: null)
    const ids = await store.zrangeByLexAfter(idsKey(workspaceId), cursor, want + 1);
    const slice = ids.slice(0, want);
    const [entries, statuses] = await Promise.all([
      store.hmget(usersKey(workspaceId), slice),
      store.hmget(statusKey(workspaceId), slice),
    ]);
    const index: Record<string, string> = {};
    const status: Record<string, string> = {};
    slice.forEach((id, i) => {
      if (entries[i]) index[id] = entries[i];
      if (statuses[i]) status[id] = statuses[i];
    });
    const live = await listLive(store, workspaceId, index, status, now);
    gone += slice.length - live.length;
    users.push(...live);
    if (ids.length <= want) {
      end = true;
      break;
    }
    cursor = slice.at(-1)!;
  }
  return {
    users,
    next: end ? null : cursor,
    onlineCount: after === null && end ? users.length : Math.max(users.length, total - gone),
  };
}

/**
 * Remove a user without live connections from the index; false (and the entry put back) when a connection came
 * in meanwhile. A connect writes its connection before its index entry and this removes the entry before counting,
 * so in whichever order the two run on the store, a user with a live connection stays listed. Without a transaction
 * in the store, that order is what keeps the index whole.
 */
export async function dropIfGone(
  store: EphemeralStore,
  workspaceId: string,
  userId: string,
  userJson: string,
  now: number,
): Promise<boolean> {
  const conns = connsKey(workspaceId, userId);
  const [, , , live] = await Promise.all([
    store.zremRangeByScoreBelow(conns, now), // the expired members go, and with the last of them the key
    store.hdel(usersKey(workspaceId), userId),
    store.zrem(idsKey(workspaceId), userId),
    store.zcount(conns, now),
  ]);
  if (live === 0) return true;
  // The hdel may have emptied the index, and with it its TTL: the entry put back gets one again.
  await Promise.all([
    store.hset(usersKey(workspaceId), userId, userJson),
    store.zadd(idsKey(workspaceId), 0, userId),
    store.expire(usersKey(workspaceId), CONNECTION_TTL_MS),
    store.expire(idsKey(workspaceId), CONNECTION_TTL_MS),
  ]);
  return false;
}
