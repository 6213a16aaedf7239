/** Typed fetch helpers for the room-area HTTP API (docs/protocol.md). */
import { API } from '@ephemera/proto/client';
import type {
  CheckNameAnswer,
  CheckUsernameAnswer,
  RoomLookupAnswer,
  WorkspaceInfoAnswer,
  CreateWorkspaceBody,
  CreateWorkspaceAnswer,
  JoinWorkspaceBody,
  JoinWorkspaceAnswer,
} from '@ephemera/proto';

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; kind: 'http'; status: number; code: string | null; message: string | null }
  | { ok: false; kind: 'network' }
  | { ok: false; kind: 'timeout' }
  | { ok: false; kind: 'aborted' };

export interface CallOptions {
  /** cancels the call (a newer keystroke, the component went away) */
  signal?: AbortSignal;
  /** aborts the call after this many ms and answers kind 'timeout' */
  timeoutMs?: number;
}

interface RequestOptions extends CallOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
}

async function call<T>(path: string, opts: RequestOptions = {}): Promise<ApiResult<T>> {
  const ctrl = new AbortController();
  let timedOut = false;
  const onAbort = () => ctrl.abort();
  if (opts.signal) {
    if (opts.signal.aborted) return { ok: false, kind: 'aborted' };
    opts.signal.addEventListener('abort', onAbort, { once: true });
  }
  const timer = opts.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        ctrl.abort();
      }, opts.timeoutMs)
    : null;
  try {
    const res = await fetch(path, {
      method: opts.method ?? 'GET',
      headers:
        opts.body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: ctrl.signal,
      credentials: 'same-origin',
    });
    const body = await readJson(res);
    if (!res.ok) {
      const err = (body ?? {}) as { code?: unknown; message?: unknown };
      return {
        ok: false,
        kind: 'http',
        status: res.status,
        code: typeof err.code === 'string' ? err.code : null,
        message: typeof err.message === 'string' && err.message ? err.message : null,
      };
    }
    if (body === undefined) return { ok: false, kind: 'http', status: res.status, code: null, message: null };
    return { ok: true, status: res.status, data: body as T };
  } catch {
    if (timedOut) return { ok: false, kind: 'timeout' };
    if (ctrl.signal.aborted) return { ok: false, kind: 'aborted' };
    return { ok: false, kind: 'network' };
  } finally {
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

async function readJson(res: Response): Promise<unknown> {
  try {
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export const api = {
  checkName: (name: string, opts?: CallOptions) => call<CheckNameAnswer>(API.checkName(name), opts),
  roomByName: (roomName: string, opts?: CallOptions) => call<RoomLookupAnswer>(API.roomByName(roomName), opts),
  info: (workspaceId: string, opts?: CallOptions) => call<WorkspaceInfoAnswer>(API.info(workspaceId), opts),
  checkUsername: (workspaceId: string, username: string, opts?: CallOptions) =>
    call<CheckUsernameAnswer>(API.checkUsername(workspaceId, username), opts),
  create: (body: CreateWorkspaceBody, opts?: CallOptions) =>
    call<CreateWorkspaceAnswer>(API.create(), { ...opts, method: 'POST', body }),
  join: (workspaceId: string, body: JoinWorkspaceBody, opts?: CallOptions) =>
    call<JoinWorkspaceAnswer>(API.join(workspaceId), { ...opts, method: 'POST', body }),
};
