/**
 * When two usernames are the same name: their comparison keys are equal. The key is the name's confusable skeleton
 * (Unicode UTS #39, section 4) of its NFKC, lower-cased form, so names that render alike are one name: case and
 * width variants (`ALICE`, `ａｌｉｃｅ`), look-alike letters of other scripts (`аlice` with a Cyrillic а, `bοb`
 * with a Greek ο) and look-alike sequences (`rn` and `m`). The mapping is Unicode's confusables.txt, as packaged by
 * unhomoglyph. The key is never shown: it only decides uniqueness (through a keyed hash, member-crypto.ts).
 */
import unhomoglyph from 'unhomoglyph';
import { normalizeUsername } from '@ephemera/proto';

/** UTS #39 skeleton: NFD, each character replaced by its prototype from confusables.txt, NFD again. */
const skeleton = (s: string): string => unhomoglyph(s.normalize('NFD')).normalize('NFD');

export const usernameKey = (s: string): string => skeleton(normalizeUsername(s).toLowerCase().normalize('NFKC'));
