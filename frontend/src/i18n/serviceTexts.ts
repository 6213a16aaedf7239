/**
 * The services' own refusals: the English texts a service words itself under VALIDATION (proto's SERVICE_TEXTS, a
 * rule checked in the service rather than in proto's schemas), each with its key in the errors catalog and the values
 * of its placeholders (limits as written, without grouping, so the German follows proto's limits). errorText reads
 * these after the field rules' table (validationTexts.ts). The Record's type makes every text of SERVICE_TEXTS need a
 * key here; serviceTexts.test.ts checks each shows in English exactly as the service sends it and in German of its own.
 */
import {
  CAPTION_MAX,
  CUSTOM_REVENUE_MAX_DAYS,
  LIMITS,
  LINK_PREVIEW_LIMITS,
  SERVICE_TEXTS,
  VOICE_MAX_MINUTES,
} from '@ephemera/proto/client';
import type { MessageId, MessageValues } from './i18n.ts';

const KEYS: Record<keyof typeof SERVICE_TEXTS, [MessageId, MessageValues?]> = {
  privateChannelNeedsMember: ['errors.service.privateChannelNeedsMember'],
  memberAddedAndRemoved: ['errors.service.memberAddedAndRemoved'],
  dmNotRenamed: ['errors.service.dmNotRenamed'],
  memberListPrivateOnly: ['errors.service.memberListPrivateOnly'],
  ownerStaysOwner: ['errors.service.ownerStaysOwner'],
  callSelf: ['errors.service.callSelf'],
  dmSelf: ['errors.service.dmSelf'],
  roomNameTooLong: ['errors.service.roomNameTooLong', { max: String(LIMITS.roomNameMax) }],
  captionTooLong: ['errors.service.captionTooLong', { max: String(CAPTION_MAX) }],
  voiceTooLong: ['errors.service.voiceTooLong', { minutes: String(VOICE_MAX_MINUTES) }],
  linkRequired: ['errors.service.linkRequired'],
  linkInvalid: ['errors.service.linkInvalid'],
  linkTooLong: ['errors.service.linkTooLong', { max: String(LINK_PREVIEW_LIMITS.urlMax) }],
  linkNotHttp: ['errors.service.linkNotHttp'],
  notImageAddress: ['errors.service.notImageAddress'],
  returnAddressOffSite: ['errors.service.returnAddressOffSite'],
  noAdminTrial: ['errors.service.noAdminTrial'],
  cleanupRunning: ['errors.service.cleanupRunning'],
  notCalendarDays: ['errors.service.notCalendarDays'],
  revenuePeriodTooLong: ['errors.service.revenuePeriodTooLong', { days: String(CUSTOM_REVENUE_MAX_DAYS) }],
};

/** each service text's English words to its key and placeholder values */
export const SERVICE_TEXT_KEYS = new Map<string, [MessageId, MessageValues?]>(
  Object.entries(KEYS).map(([name, key]) => [SERVICE_TEXTS[name as keyof typeof SERVICE_TEXTS], key]),
);
