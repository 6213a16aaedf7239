/**
 * The refusals the services word themselves (a rule checked in a service, not in proto's schemas) under VALIDATION:
 * one place for each English text, so the service throws it and the browser finds it by its words
 * (frontend/src/i18n/validationTexts.ts, docs/i18n.md). Texts with a limit are functions of proto's limit, so the
 * text and the rule cannot drift apart. Zod-free: the browser's entry (client.ts) exports it.
 */
import { CUSTOM_REVENUE_MAX_DAYS } from './admin-paths.ts';
import { LIMITS } from './limits.ts';
import { CAPTION_MAX, LINK_PREVIEW_LIMITS, VOICE_MAX_MS } from './paths.ts';

/** a voice message's longest length in whole minutes, as its refusal words it */
export const VOICE_MAX_MINUTES = VOICE_MAX_MS / 60_000;

export const SERVICE_TEXTS = {
  // the room service (services/room)
  privateChannelNeedsMember: 'A private channel needs at least one member',
  memberAddedAndRemoved: 'A user cannot be added and removed at once',
  dmNotRenamed: 'Direct messages cannot be renamed or deleted, only removed from your view',
  memberListPrivateOnly: 'Only private channels have a member list',
  ownerStaysOwner: 'The room owner stays the owner',
  callSelf: 'You cannot call yourself',
  dmSelf: 'You cannot start a conversation with yourself',
  roomNameTooLong: `Room name must be at most ${LIMITS.roomNameMax} characters`,
  // messaging (services/messaging): uploads, link previews and the image proxy
  captionTooLong: `Caption is too long (${CAPTION_MAX} characters max)`,
  voiceTooLong: `A voice message is ${VOICE_MAX_MINUTES} minutes at most`,
  linkRequired: 'Enter a link to preview',
  linkInvalid: 'This is not a valid link',
  linkTooLong: `The link is too long (${LINK_PREVIEW_LIMITS.urlMax} characters max)`,
  linkNotHttp: 'Only http and https links can be previewed',
  notImageAddress: 'Not an image address',
  // billing (services/billing)
  returnAddressOffSite: 'Return addresses must be on this site',
  noAdminTrial: 'This account has no admin trial to end',
  // admin-analytics (services/admin-analytics)
  cleanupRunning: 'A cleanup is already running',
  notCalendarDays: 'Dates must be real calendar days (YYYY-MM-DD)',
  revenuePeriodTooLong: `The period can be at most ${CUSTOM_REVENUE_MAX_DAYS} days`,
} as const;
