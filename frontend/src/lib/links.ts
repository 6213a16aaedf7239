/** Link detection for message text lives in proto (proto/src/links.ts), shared with the server's mention rule. */
export { safeHref, splitLinks, type TextPart } from '@ephemera/proto/client';
