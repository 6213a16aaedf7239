/**
 * The file routes (docs/protocol.md, Files), mounted by the embedded app and the messaging server (the ingress
 * sends /api/workspaces/{id}/files... here):
 *   POST /api/workspaces/:workspaceId/files                 multipart upload (bearer), rate-limited per user
 *   GET  /api/workspaces/:workspaceId/files/:fileId/link    signed addresses for <img>/<video>/<audio> (bearer)
 *   GET  /api/workspaces/:workspaceId/files/:fileId         the bytes (bearer or a signed link), Range supported
 * The bearer token must belong to the room the path names (the room service says whose it is: auth/bearer.ts); a
 * signed link names a member who must still be able to read the file's channel.
 */
import express from 'express';
import { HTTP_ROUTES, type RoomTokensApi, type SessionActor } from '@ephemera/proto';
import { route, BODY_HANDOFF_HEADER, type BodyHandoff } from '@ephemera/platform';
import { memberByBearer } from '../auth/bearer.ts';
import type { RateLimit } from '../link-preview/router.ts';
import type { FileService } from './service.ts';

export interface FileRouterDeps {
  /** whose a bearer token is (the room service) */
  tokens: RoomTokensApi; files: FileService; limit: RateLimit;
  /** embedded: the gateway hands an upload's body over in-process (platform/body-handoff.ts); absent: the request's own */
  bodyHandoff?: BodyHandoff;
}

/**
 * The bearer's member, who must be in the room the path names (another room's token is a non-member here). What the
 * member may read is messaging's read model's to say (access.ts, which waits for room events it has not applied yet).
 */
async function actorFor(deps: FileRouterDeps, authorization: string | undefined, workspaceId: string): Promise<SessionActor> {
  return { ...(await memberByBearer(deps.tokens, authorization, workspaceId)), username: '-' };
}

export function fileRouter(deps: FileRouterDeps): express.Router {
  const r = express.Router();
  r.post(HTTP_ROUTES.uploadFile.path, route(async (req, res) => {
    res.set('Cache-Control', 'no-store');
    // Taken before any wait, so the proxy never finds its id unclaimed; an answer without reading it (401, 429) is
    // the proxy's cue to drop the rest. No handed-over body (distributed, or the id unknown): the request's own.
    const handed = deps.bodyHandoff?.take(req.headers[BODY_HANDOFF_HEADER]);
    const body = handed ? Object.assign(handed, { headers: req.headers }) : req;
    const actor = await actorFor(deps, req.headers.authorization, String(req.params.workspaceId));
    await deps.limit(`upload:${actor.userId}`);
    const file = await deps.files.upload(actor, body);
    res.status(201).json({ success: true, file });
  }));
  r.get(HTTP_ROUTES.fileLink.path, route(async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const actor = await actorFor(deps, req.headers.authorization, String(req.params.workspaceId));
    res.json({ success: true, ...(await deps.files.link(actor, String(req.params.fileId))) });
  }));
  r.get(HTTP_ROUTES.downloadFile.path, route(async (req, res) => {
    const { workspaceId, fileId } = req.params as { workspaceId: string; fileId: string };
    const variant = req.query.variant === 'thumb' ? 'thumb' : 'file';
    const actor: SessionActor = req.headers.authorization
      ? await actorFor(deps, req.headers.authorization, workspaceId)
      : { workspaceId, userId: await deps.files.verifyLink(workspaceId, fileId, variant, req.query as Record<string, unknown>), username: '-' };
    const download = await deps.files.download(actor, fileId, variant, req.headers.range);
    res.status(download.status).set(download.headers);
    download.body.on('error', () => res.destroy());
    download.body.pipe(res);
  }));
  return r;
}
