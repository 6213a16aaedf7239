/** Overlay submit: create or join over HTTP, with the error texts of docs/product/rooms.md R6, R12. */
import { api, type ApiResult } from './api.ts';
import type { AuthRecord } from './storage.ts';

export const MSG_CREATE_FAILED = 'Failed to create workspace';
export const MSG_JOIN_FAILED = 'Failed to join workspace';
export const MSG_NAME_TAKEN = 'Room name is already taken';
export const MSG_NETWORK = 'Network error';

export type SubmitResult = { ok: true; auth: AuthRecord } | { ok: false; message: string };

export function createErrorMessage(r: Exclude<ApiResult<unknown>, { ok: true }>): string {
  if (r.kind !== 'http') return MSG_NETWORK;
  if (r.status === 409 || r.code === 'ROOM_NAME_TAKEN') return r.message || MSG_NAME_TAKEN;
  return r.message || MSG_CREATE_FAILED;
}

export function joinErrorMessage(r: Exclude<ApiResult<unknown>, { ok: true }>): string {
  if (r.kind !== 'http') return MSG_NETWORK;
  return r.message || MSG_JOIN_FAILED;
}

export async function createRoom(input: {
  roomName: string;
  username: string;
  password: string | null;
}): Promise<SubmitResult> {
  const r = await api.create({
    name: input.roomName,
    username: input.username,
    password: input.password,
    hasPassword: Boolean(input.password),
  });
  if (!r.ok) return { ok: false, message: createErrorMessage(r) };
  const workspaceId = r.data.workspaceId ?? r.data.workspace?.id;
  if (!workspaceId || !r.data.userToken) return { ok: false, message: MSG_CREATE_FAILED };
  return {
    ok: true,
    auth: {
      workspaceId,
      userToken: r.data.userToken,
      username: r.data.user?.username ?? input.username,
      roomName: r.data.workspace?.name ?? input.roomName,
      password: input.password,
    },
  };
}

export async function joinRoom(input: {
  workspaceId: string;
  roomName: string;
  username: string;
  password: string | null;
}): Promise<SubmitResult> {
  const r = await api.join(
    input.workspaceId,
    input.password ? { username: input.username, password: input.password } : { username: input.username },
  );
  if (!r.ok) return { ok: false, message: joinErrorMessage(r) };
  if (!r.data.userToken) return { ok: false, message: MSG_JOIN_FAILED };
  return {
    ok: true,
    auth: {
      workspaceId: r.data.workspaceId ?? input.workspaceId,
      userToken: r.data.userToken,
      username: r.data.user?.username ?? input.username,
      roomName: input.roomName,
      password: input.password,
    },
  };
}
