/**
 * Our stored files' addresses (/api/workspaces/{id}/files/{fileId}) need the member's token, which an <img> cannot
 * send: they are shown through signed links from the link route (docs/protocol.md Files), cached until shortly
 * before they expire. The room page registers how to reach the token (registerFileAccess).
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { fileLink } from './fileUpload.ts';

type Access = () => { workspaceId: string; userToken: string };
let access: Access | null = null;
const cache = new Map<string, { url: string; until: number }>();
const LINK_REUSE_MS = 10 * 60 * 1000; // links live 15 minutes

/**
 * Pictures shown before the access is registered (the room page registers it in an effect, which runs after its
 * children's: one's own picture in the sidebar on a reload) load again once it is: they subscribe to its changes.
 */
let accessVersion = 0;
const accessListeners = new Set<() => void>();
const onAccessChange = (listener: () => void) => {
  accessListeners.add(listener);
  return () => {
    accessListeners.delete(listener);
  };
};
const currentAccessVersion = () => accessVersion;

export function registerFileAccess(fn: Access | null): void {
  access = fn;
  cache.clear();
  accessVersion += 1;
  for (const listener of accessListeners) listener();
}

const FILE_PATH = /^\/api\/workspaces\/([A-Za-z0-9_-]+)\/files\/([A-Za-z0-9_-]+)$/;
export const isStoredFilePath = (src: string) => FILE_PATH.test(src);

export async function signedUrl(path: string): Promise<string | null> {
  const hit = cache.get(path);
  if (hit && hit.until > Date.now()) return hit.url;
  const m = FILE_PATH.exec(path);
  const a = access?.();
  if (!m || !a || a.workspaceId !== m[1]) return null;
  const link = await fileLink(m[1]!, m[2]!, a.userToken);
  if (!link) return null;
  cache.set(path, { url: link.url, until: Date.now() + LINK_REUSE_MS });
  return link.url;
}

/** The address to load: a signed link for our stored files (null until it is known), anything else as given. */
export function useSignedUrl(src: string | null): string | null {
  const stored = src !== null && isStoredFilePath(src);
  const [url, setUrl] = useState<string | null>(stored ? (cache.get(src)?.url ?? null) : src);
  const version = useSyncExternalStore(onAccessChange, currentAccessVersion, currentAccessVersion);
  useEffect(() => {
    if (!src || !stored) {
      setUrl(src);
      return;
    }
    let live = true;
    void signedUrl(src).then((u) => {
      if (live) setUrl(u);
    });
    return () => {
      live = false;
    };
  }, [src, stored, version]);
  return url;
}
