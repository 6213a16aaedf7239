/**
 * Helpers of the channels suite (test/suites/channels.suite.ts): a room with an owner and members spread over
 * both origins (A and B are different gateway replicas in distributed mode), and barriers that prove a socket was
 * NOT sent something: events of a room reach each socket in log order, so once a later event has arrived, an
 * earlier one that did not arrive never will.
 */
import { expect } from 'vitest';
import type { Socket } from 'socket.io-client';
import { C, S, type Channel, type ClientAcks, type ClientEventName, type Workspace } from '@ephemera/proto';
import { connect, createRoom, joinRoom, next, request, socketJoin, uniqueName, clientId } from '../helpers/clients.ts';
import type { TargetRef } from './target-ref.ts';

export interface Person {
  id: string;
  name: string;
  token: string;
  base: string;
  socket: Socket;
}

let marker = 0;

export class TestRoom {
  private readonly sockets: Socket[] = [];
  /** a public channel every member sees: message barriers are sent there */
  general: Channel | null = null;

  private constructor(
    readonly workspaceId: string,
    readonly owner: Person,
    readonly members: Person[],
  ) {
    this.sockets.push(owner.socket, ...members.map((m) => m.socket));
  }

  /** The owner (alice) on A; members alternate B, A, B... */
  static async open(target: TargetRef, names: string[]): Promise<TestRoom> {
    const { A, B } = target();
    const created = await createRoom(A, uniqueName('ch'), 'alice');
    const ownerSocket = (await socketJoin(A, created.workspaceId, 'alice', created.userToken)).socket;
    const owner: Person = {
      id: created.user.id,
      name: 'alice',
      token: created.userToken,
      base: A,
      socket: ownerSocket,
    };
    const members: Person[] = [];
    for (const [i, name] of names.entries()) {
      const base = i % 2 === 0 ? B : A;
      const joined = await joinRoom(base, created.workspaceId, name);
      const { socket } = await socketJoin(base, created.workspaceId, name, joined.userToken);
      members.push({ id: joined.user.id, name, token: joined.userToken, base, socket });
    }
    return new TestRoom(created.workspaceId, owner, members);
  }

  /** Another connection of the same user (another tab), on the given origin. */
  async secondSocket(person: Person, base: string): Promise<Socket> {
    const { socket } = await socketJoin(base, this.workspaceId, person.name, person.token);
    this.sockets.push(socket);
    return socket;
  }

  /** What a fresh join-workspace answers this user now (a reload). */
  async freshJoin(person: Person): Promise<ClientAcks[typeof C.joinWorkspace]> {
    const socket = await connect(person.base);
    this.sockets.push(socket);
    const ack = await request(socket, C.joinWorkspace, {
      workspaceId: this.workspaceId,
      username: person.name,
      userToken: person.token,
    });
    socket.disconnect();
    return ack;
  }

  async channelsOf(person: Person): Promise<Channel[]> {
    const ack = await this.freshJoin(person);
    if (!ack.success) throw new Error(`join failed: ${ack.message}`);
    return (ack.workspace as Workspace).channels;
  }

  async createChannel(by: Person, name: string, isPrivate = false, memberIds: string[] = []): Promise<Channel> {
    const ack = await request(by.socket, C.createChannel, {
      workspaceId: this.workspaceId,
      name,
      type: 'topic',
      isPrivate,
      memberIds,
    });
    if (!ack.success) throw new Error(`create-channel failed: ${ack.message}`);
    return ack.channel;
  }

  async dm(by: Person, target: Person): Promise<Channel> {
    const ack = await request(by.socket, C.createDmChannel, { workspaceId: this.workspaceId, targetUserId: target.id });
    if (!ack.success) throw new Error(`create-dm-channel failed: ${ack.message}`);
    return ack.channel;
  }

  async send(by: Person | Socket, channelId: string, content: string) {
    const socket = 'socket' in by ? by.socket : by;
    return request(socket, C.sendMessage, { clientMessageId: clientId(), channelId, content, type: 'text' });
  }

  /** Every socket has received every room event appended before this call (a public channel-created after them). */
  async roomBarrier(sockets: Socket[]): Promise<void> {
    const name = `mark-${marker++}-${Date.now().toString(36)}`.slice(0, 30);
    const seen = sockets.map((s) => next<Channel>(s, S.channelCreated, (c) => c.name === name));
    await this.createChannel(this.owner, name);
    await Promise.all(seen);
  }

  /** Every socket has received every message appended before this call (a message in the public #general after them). */
  async messageBarrier(sockets: Socket[]): Promise<void> {
    this.general ??= await this.createChannel(this.owner, `general-${marker++}`);
    const content = `barrier ${marker++}`;
    const seen = sockets.map((s) => next<{ content: string }>(s, S.message, (m) => m.content === content));
    const ack = await this.send(this.owner, this.general.id, content);
    if (!ack.success) throw new Error(`barrier send failed: ${ack.message}`);
    await Promise.all(seen);
  }

  close(): void {
    for (const s of this.sockets) s.disconnect();
  }
}

/** The ack is a refusal with this code (and this text, when given). */
export function expectRefused(ack: ClientAcks[ClientEventName], code: string, message?: string): void {
  expect(ack.success, JSON.stringify(ack)).toBe(false);
  if (ack.success) return;
  expect(ack.code).toBe(code);
  if (message !== undefined) expect(ack.message).toBe(message);
}
