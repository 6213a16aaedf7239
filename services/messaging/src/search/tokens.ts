/**
 * Search tokens: the words of a text, normalized (NFKC, lower case, diacritics removed) and segmented with the
 * platform's Unicode word segmentation (Intl.Segmenter, so scripts without spaces split too), each turned into a
 * 64-bit keyed hash: HMAC-SHA256 under the room's search subkey (HKDF of the room's own data key, purpose
 * SEARCH_PURPOSE), first 8 bytes as a signed bigint. The index stores only these numbers. Equal words give equal
 * tokens (exact-word matching); nothing else about the text is kept, and once the room's key is destroyed the
 * numbers cannot be tied to any word again.
 */
import { createHmac } from 'node:crypto';
import type { RoomKey } from '@ephemera/platform';

/** The room key's purpose for search tokens (RoomKey.subkey). A new version means a rebuilt index. */
export const SEARCH_PURPOSE = 'search-v1';

const MAX_TOKENS_PER_MESSAGE = 256;
const MAX_WORD_LENGTH = 64;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** The normalized words of a text, each once, in order of first appearance. */
export function normalizedWords(text: string): string[] {
  const folded = text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC');
  const words = new Set<string>();
  for (const { segment, isWordLike } of segmenter.segment(folded)) {
    if (!isWordLike || segment.length > MAX_WORD_LENGTH) continue;
    words.add(segment);
    if (words.size >= MAX_TOKENS_PER_MESSAGE) break;
  }
  return [...words];
}

/** One word's token under a room's search subkey. */
export function wordToken(searchKey: Buffer, word: string): bigint {
  return createHmac('sha256', searchKey).update(word, 'utf8').digest().readBigInt64BE(0);
}

export function searchTokens(key: RoomKey, text: string): bigint[] {
  const searchKey = key.subkey(SEARCH_PURPOSE);
  return normalizedWords(text).map((w) => wordToken(searchKey, w));
}
