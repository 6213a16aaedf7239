/** Test clients speaking the real protocol: HTTP via fetch, realtime via socket.io-client. */
import { io, type Socket } from 'socket.io-client';
import {
  API,
  C,
  type ClientAcks,
  type ClientEventName,
  type ClientPayload,
  type CreateWorkspaceAnswer,
  type JoinWorkspaceAnswer,
} from '@ephemera/proto';

export async function http<T = any>(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(base + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, body: json as T, headers: res.headers };
}

export function connect(
  base: string,
  opts: { transports?: string[]; extraHeaders?: Record<string, string> } = {},
): Promise<Socket> {
  const socket = io(base, {
    transports: opts.transports ?? ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: opts.extraHeaders,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

export async function request<E extends ClientEventName>(
  socket: Socket,
  event: E,
  payload: ClientPayload<E> | unknown,
): Promise<ClientAcks[E]> {
  return socket.timeout(10_000).emitWithAck(event, payload);
}

/** Resolves with the next `event` the socket receives that matches the predicate. */
export function next<T = any>(
  socket: Socket,
  event: string,
  match: (p: T) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, on);
      reject(new Error(`timed out waiting for ${event}`));
    }, timeoutMs);
    const on = (p: T) => {
      if (match(p)) {
        clearTimeout(timer);
        socket.off(event, on);
        resolve(p);
      }
    };
    socket.on(event, on);
  });
}

/** Collects every `event` payload the socket receives from now on. */
export function collect<T = any>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (p: T) => seen.push(p));
  return seen;
}

let counter = 0;
export const uniqueName = (prefix = 'room') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;
export const clientId = () => `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;

/** Create a room over HTTP and join it over a socket: the first steps of the journey. */
export async function createRoom(base: string, name = uniqueName(), username = 'alice', password?: string) {
  const created = await http<CreateWorkspaceAnswer>(base, API.create(), {
    body: { name, username, password, hasPassword: Boolean(password) },
  });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  return { name, ...created.body };
}

export async function joinRoom(base: string, workspaceId: string, username: string, password?: string) {
  const joined = await http<JoinWorkspaceAnswer>(base, API.join(workspaceId), { body: { username, password } });
  if (joined.status !== 200) throw new Error(`join failed: ${JSON.stringify(joined.body)}`);
  return joined.body;
}

export async function socketJoin(base: string, workspaceId: string, username: string, userToken: string) {
  const socket = await connect(base);
  const ack = await request(socket, C.joinWorkspace, { workspaceId, username, userToken });
  if (!ack.success) throw new Error(`join-workspace failed: ${ack.message}`);
  return { socket, ack };
}
