/**
 * The file routes (docs/protocol.md, Files), mounted by the embedded app and the messaging server (the ingress
 * sends /api/workspaces/{id}/files... here):
 *   POST /api/workspaces/:workspaceId/files                 multipart upload (bearer), rate-limited per user
 *   GET  /api/workspaces/:workspaceId/files/:fileId/link    signed addresses for <img>/<video>/<audio> (bearer)
 *   GET  /api/workspaces/:workspaceId/files/:fileId         the bytes (bearer or a signed link), Range supported
 * The bearer token must belong to the room the path names (the room service says whose it is: roomMemberOf in platform/src/public-route.ts); a
 * signed link names a member who must still be able to read the file's channel.
 */
import express from 'express';
import { type RoomTokensApi, type SessionActor } from '@ephemera/proto';
import {
  memberOf,
  publicRoute,
  roomMemberOf,
  sendsAuthorization,
  BODY_HANDOFF_HEADER,
  type BodyHandoff,
  type Caller,
  type Callers,
} from '@ephemera/platform';
import type { RateLimit } from '../link-preview/router.ts';
import type { FileService } from './service.ts';

export interface FileRouterDeps {
  /** whose a bearer token is (the room service) */
  tokens: RoomTokensApi;
  files: FileService;
  limit: RateLimit;
  /** embedded: the gateway hands an upload's body over in-process (platform/body-handoff.ts); absent: the request's own */
  bodyHandoff?: BodyHandoff;
}

/** The caller as messaging's commands take it (what the member may read is access.ts's to say). */
const actorOf = (caller: Caller): SessionActor => {
  const m = memberOf(caller);
  return { workspaceId: m.workspaceId, userId: m.userId, username: '-' };
};

export function fileRouter(deps: FileRouterDeps): express.Router {
  const r = express.Router();
  // The bearer's member, who must be in the room the path names (another room's token is a non-member here).
  const bearer: Callers = { member: (req) => roomMemberOf(deps.tokens, req, String(req.params.workspaceId)) };
  // A download may carry a signed link instead, which names a member (who must still be able to read the channel).
  const bearerOrLink: Callers = {
    member: async (req) => {
      if (sendsAuthorization(req)) return bearer.member!(req);
      const workspaceId = String(req.params.workspaceId);
      const variant = req.query.variant === 'thumb' ? 'thumb' : 'file';
      const userId = await deps.files.verifyLink(
        workspaceId,
        String(req.params.fileId),
        variant,
        req.query as Record<string, unknown>,
      );
      return { kind: 'member', role: 'member', workspaceId, userId };
    },
  };
  // Taken before any wait, so the proxy never finds its id unclaimed; an answer without reading it (401, 429) is
  // the proxy's cue to drop the rest. No handed-over body (distributed, or the id unknown): the request's own.
  const takeHandedBody: express.RequestHandler = (req, res, next) => {
    res.locals.handed = deps.bodyHandoff?.take(req.headers[BODY_HANDOFF_HEADER]);
    next();
  };
  publicRoute(
    r,
    'uploadFile',
    bearer,
    async (req, res, caller) => {
      res.set('Cache-Control', 'no-store');
      const handed = res.locals.handed as ReturnType<BodyHandoff['take']>;
      const body = handed ? Object.assign(handed, { headers: req.headers }) : req;
      const actor = actorOf(caller);
      await deps.limit(`upload:${actor.userId}`);
      const file = await deps.files.upload(actor, body);
      res.status(201).json({ success: true, file });
    },
    takeHandedBody,
  );
  publicRoute(r, 'fileLink', bearer, async (req, res, caller) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, ...(await deps.files.link(actorOf(caller), String(req.params.fileId))) });
  });
  publicRoute(r, 'downloadFile', bearerOrLink, async (req, res, caller) => {
    const variant = req.query.variant === 'thumb' ? 'thumb' : 'file';
    const download = await deps.files.download(actorOf(caller), String(req.params.fileId), variant, req.headers.range);
    res.status(download.status).set(download.headers);
    download.body.on('error', () => res.destroy());
    download.body.pipe(res);
  });
  return r;
}
