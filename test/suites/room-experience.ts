/**
 * The room-experience suites and room administration, run against every way of running the product with ONE server start per
 * mode (services/embedded/test/embedded-room-experience.test.ts, test/distributed/distributed-room-experience.test.ts).
 * Each suite file exports a function that registers its tests and reads the running target through `target()`.
 */
import { describe, beforeAll, afterAll } from 'vitest';
import type { Target } from './journey.suite.ts';
import { channelsSuite } from './channels.suite.ts';
import { messagesSuite } from './messages.suite.ts';
import { presenceSuite } from './presence.suite.ts';
import { searchSuite } from './search.suite.ts';
import { authzSuite } from './authz.suite.ts';
import { roomAdminSuite } from './room-admin.suite.ts';
import { callsSuite } from './calls.suite.ts';
import { filesSuite } from './files.suite.ts';
import type { TargetRef } from './target-ref.ts';

export function roomExperienceSuites(name: string, start: () => Promise<Target>) {
  describe(`room experience: ${name}`, () => {
    let t: Target | null = null;
    beforeAll(async () => {
      t = await start();
    });
    afterAll(async () => {
      await t?.stop();
    });
    const target: TargetRef = () => {
      if (!t) throw new Error('target not started');
      return Object.assign(t, { A: t.url, B: t.urlB ?? t.url });
    };
    channelsSuite(target);
    messagesSuite(target);
    presenceSuite(target);
    searchSuite(target);
    authzSuite(target);
    callsSuite(target);
    roomAdminSuite(target); // its expiry test moves the clock
    filesSuite(target); // after it: its retention test moves the clock by a week
  });
}
