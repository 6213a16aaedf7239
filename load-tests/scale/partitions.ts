/**
 * Rooms to Kafka partitions as the event log places them: the record key is the workspace id
 * (services/platform/src/event-log/kafka.ts) and the producer's partitioner is kafkajs' DefaultPartitioner (Java's
 * murmur2, positive, modulo the partition count), called here itself so the spread is the real one.
 */
import { Partitioners, type PartitionMetadata } from 'kafkajs';

const partitioner = Partitioners.DefaultPartitioner();
const metadata = new Map<number, PartitionMetadata[]>();

function metadataFor(partitions: number): PartitionMetadata[] {
  let m = metadata.get(partitions);
  if (!m) {
    m = Array.from({ length: partitions }, (_, partitionId) => ({
      partitionErrorCode: 0,
      partitionId,
      leader: 0,
      replicas: [0],
      isr: [0],
    }));
    metadata.set(partitions, m);
  }
  return m;
}

/** The partition of `partitions` a record keyed `key` goes to. */
export function partitionOf(key: string, partitions: number): number {
  return partitioner({
    topic: 'ephemera.room-events',
    partitionMetadata: metadataFor(partitions),
    message: { key, value: null },
  });
}

/** A seeded generator of floats in [0, 1) (mulberry32): the same seed, the same simulation. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A workspace id shaped as the room service makes them (16 base62 characters, platform's newId). */
export function roomId(random: () => number): string {
  let id = '';
  for (let k = 0; k < 16; k++) id += ALPHABET[Math.floor(random() * 62)];
  return id;
}
