/**
 * Signed addresses of the image proxy (`GET /api/link-preview/image?u=...&s=...`, served by messaging;
 * docs/link-previews.md "Images"): only an address our own server signed can be fetched, so the proxy is never open.
 * Here, not in messaging, because two services issue such addresses: messaging (preview images) and room (the
 * custom theme's logo). Both derive the key from the same master key (ROOM_MASTER_KEY / DATA_DIR/master.key) with
 * the same HKDF info, so a path the room service signs verifies at messaging's route.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { LINK_PREVIEW_IMAGE_PATH } from '@ephemera/proto';

/** HMAC signatures of image addresses: the key derives from the master key, separately from every other use. */
export class ImageSigner {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'ephemera link-preview image v1', 32));
  }

  sign(url: string): string {
    return createHmac('sha256', this.key).update(url, 'utf8').digest('base64url');
  }

  /** Constant-time comparison of `signature` with the signature of exactly `url`. */
  verify(url: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(url), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The same-origin path shown instead of the image's own address. */
  path(url: string): string {
    return `${LINK_PREVIEW_IMAGE_PATH}?u=${encodeURIComponent(url)}&s=${this.sign(url)}`;
  }
}
