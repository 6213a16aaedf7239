/** The Markdown subset read without the renderer lives in proto (proto/src/markdown.ts), shared with the server. */
export { hasFormatting, plainText } from '@ephemera/proto/client';
