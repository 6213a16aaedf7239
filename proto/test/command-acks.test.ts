/**
 * Each command's ack type is read from its row of the command table (proto/src/commands.ts, `ack: ack<...>()`), and
 * ClientAcks is made from the rows. These are type-level checks: `npx tsc -p tsconfig.json --noEmit` (npm run lint)
 * fails when a derived ack is not exactly the type written in the row, wrapped in Ack; vitest runs them as no-ops.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  C,
  type Ack,
  type AckOf,
  type Channel,
  type ClientAcks,
  type CommandAnswer,
  type Message,
  type OnlinePage,
  type RoomUser,
  type Workspace,
  type WorkspaceUpdate,
} from '../src/index.ts';

describe('the acks read from the command table', () => {
  it('is the row ack wrapped in Ack, exactly', () => {
    expectTypeOf<ClientAcks[typeof C.createChannel]>().toEqualTypeOf<Ack<{ channel: Channel }>>();
    expectTypeOf<ClientAcks[typeof C.joinWorkspace]>().toEqualTypeOf<
      Ack<{ user: RoomUser; workspace: Workspace; message?: string }>
    >();
    expectTypeOf<ClientAcks[typeof C.fetchOnlineUsers]>().toEqualTypeOf<Ack<OnlinePage>>();
    expectTypeOf<AckOf<typeof C.renameWorkspace>>().toEqualTypeOf<{ workspace: WorkspaceUpdate }>();
  });

  it('gives a command whose success carries nothing an ack with no fields, not Ack<unknown>', () => {
    expectTypeOf<ClientAcks[typeof C.leaveWorkspace]>().toEqualTypeOf<Ack<Record<never, never>>>();
    expectTypeOf<ClientAcks[typeof C.leaveWorkspace]>().not.toEqualTypeOf<Ack<unknown>>();
    expectTypeOf<CommandAnswer<typeof C.deleteWorkspace>>().toEqualTypeOf<{ workspaceId: string }>();
  });

  it("makes an owner's answer from the row's ack and answer field", () => {
    expectTypeOf<CommandAnswer<typeof C.sendMessage>>().toEqualTypeOf<Message>();
    expectTypeOf<CommandAnswer<typeof C.deleteDm>>().toEqualTypeOf<{ channelId: string }>();
  });
});
