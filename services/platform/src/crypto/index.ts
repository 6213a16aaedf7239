export { RoomKey, isSealed } from './room-key.ts';
export {
  MasterKeys,
  DEV_MASTER_KEY,
  parseMasterKey,
  masterKeyFile,
  masterKeyId,
  type WrappedKey,
} from './master-key.ts';
export { FileRoomKeyStore, type RoomKeyStore } from './key-store.ts';
export { RoomKeyring, type RoomKeySource } from './keyring.ts';
export { ownedRoomKeys, fileRoomKeys, parsePreviousMasterKeys, encodeRoomKey, type OwnedRoomKeys } from './owned.ts';
export { ImageSigner } from './image-signer.ts';
export {
  ACCOUNT_LOOKUP_KEY_ID,
  EmailLookup,
  normalizeEmail,
  sealAccountField,
  openAccountField,
  ownEmailLookup,
  sharedEmailLookup,
  type AccountField,
} from './account-fields.ts';
