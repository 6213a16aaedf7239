/**
 * When two names are the same name: their comparison keys are equal. A key is the name's confusable skeleton
 * (Unicode UTS #39, section 4) of its NFKC, lower-cased form, so names that render alike are one name: case and
 * width variants (`ALICE`, `ａｌｉｃｅ`), look-alike letters of other scripts (`аlice` with a Cyrillic а, `bοb`
 * with a Greek ο) and look-alike sequences (`rn` and `m`). The mapping is Unicode's confusables.txt, as packaged by
 * unhomoglyph. Keys are never shown: they only decide uniqueness (usernames in a room, through a keyed hash in
 * member-crypto.ts; room names, room.workspaces.name_skeleton; channel names in a room, through a keyed hash in
 * member-crypto.ts).
 */
import unhomoglyph from 'unhomoglyph';
import { normalizeUsername } from '@ephemera/proto';

/** UTS #39 skeleton: NFD, each character replaced by its prototype from confusables.txt, NFD again. */
const skeleton = (s: string): string => unhomoglyph(s.normalize('NFD')).normalize('NFD');

export const usernameKey = (s: string): string => skeleton(normalizeUsername(s).toLowerCase().normalize('NFKC'));

/** Room names (letters, digits, `_` and `-`): a room whose name renders like a live room's cannot be made. */
export const roomNameKey = (name: string): string => skeleton(name.normalize('NFKC').toLowerCase().normalize('NFKC'));

/** Channel names (any visible text, invisible characters refused by proto's ChannelNameSchema): as room names. */
export const channelNameKey = (name: string): string => roomNameKey(name);
