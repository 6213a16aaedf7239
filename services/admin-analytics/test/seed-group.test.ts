/**
 * The replay after an in-place restore starts where the backup's read models stood (system/backup/position.ts
 * seedGroup), on a real Kafka: a group seeded from the admin group's recorded offsets receives exactly the records
 * appended after them, not the whole log.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { kafkaBrokers } from '../../../test/helpers/infra.ts';
import { randomBytes } from 'node:crypto';
import { ADMIN_AGGREGATE, TOPICS, type AnyEventEnvelope } from '@ephemera/proto';
import {
  KafkaEventLog,
  NamespacedEventLog,
  makeEvent,
  systemActor,
  toRecords,
  type PoolClient,
} from '@ephemera/platform';
import { ADMIN_GROUP, kafkaPosition, seedGroup } from '../src/system/backup/position.ts';

const brokers = kafkaBrokers();
const namespace = `seed${randomBytes(4).toString('hex')}`;
const kafka = new KafkaEventLog({ brokers, clientId: 'seed-group-test' });
const log = new NamespacedEventLog(kafka, namespace);
afterAll(async () => {
  await log.close();
});

let seq = 0;
const configEvents = (n: number) =>
  Array.from(
    { length: n },
    () =>
      makeEvent(
        'admin.config-changed',
        ADMIN_AGGREGATE,
        ++seq,
        { autoDeleteEnabled: false, autoDeleteDaysAfterGracePeriod: 90, at: new Date().toISOString() },
        systemActor,
      ) as AnyEventEnvelope,
  );

/** every event id a new subscription of `groupId` receives until it has caught up */
async function received(groupId: string): Promise<string[]> {
  const ids: string[] = [];
  const sub = await log.subscribe({
    groupId,
    topics: Object.values(TOPICS),
    fromBeginning: true,
    handler: async ({ event }) => {
      ids.push(event.id);
    },
  });
  await sub.caughtUp();
  await sub.stop();
  return ids;
}

describe('seedGroup on Kafka', () => {
  it('a seeded group starts after the recorded offsets; an unseeded one reads from the beginning', async () => {
    await log.init(Object.values(TOPICS));
    const before = configEvents(20);
    await log.append(toRecords(before));
    expect(await received(ADMIN_GROUP)).toEqual(before.map((e) => e.id)); // the admin group's offsets now cover these
    const after = configEvents(7);
    await log.append(toRecords(after));

    const position = await kafkaPosition({ brokers, namespace });
    expect(position).toMatchObject({ kind: 'kafka', group: ADMIN_GROUP });
    const noDatabase = null as unknown as PoolClient; // a Kafka position never touches the database
    expect(await seedGroup(noDatabase, { brokers, namespace }, 'replay-seeded', position)).toBe(true);
    expect(await received('replay-seeded')).toEqual(after.map((e) => e.id));
    expect(await received('replay-unseeded')).toEqual([...before, ...after].map((e) => e.id));
  }, 90_000);
});
