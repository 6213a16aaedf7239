/**
 * Image thumbnails (sharp, libvips): at most 320 px on the long side, WebP, orientation applied, metadata dropped.
 * Only images up to THUMBNAIL_MAX_BYTES get one (the upload keeps that much in memory to make it); a larger image
 * is shown by its full address. A decoder failure means no thumbnail, not a failed upload.
 */
import sharp from 'sharp';

export const THUMBNAIL_MAX_BYTES = 20 * 1024 * 1024;
const SIDE = 320;

export interface Thumbnail {
  data: Buffer;
  width: number | null;
  height: number | null;
}

export async function makeThumbnail(image: Buffer): Promise<Thumbnail | null> {
  try {
    const input = sharp(image, { limitInputPixels: 50_000_000, failOn: 'error' });
    const meta = await input.metadata();
    const data = await input
      .rotate()
      .resize(SIDE, SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
    const swap = (meta.orientation ?? 1) >= 5;
    return {
      data,
      width: (swap ? meta.height : meta.width) ?? null,
      height: (swap ? meta.width : meta.height) ?? null,
    };
  } catch {
    return null;
  }
}
