/**
 * An identification photo is never kept as it came (docs/decisions/security-rules.md#hardening-third-round):
 * sharp (libvips) decodes it as the type it claims, and only a new JPEG drawn from its pixels is stored, at
 * most
 * 1600 px on its longer side, turned as its EXIF says and without any metadata (location, device).
 * Bytes that do not decode as that type, such as a JPEG header followed by HTML, are refused.
 */
import sharp from 'sharp';

const FORMATS = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' } as const;
export type PhotoType = keyof typeof FORMATS;
/** The app sends at most 1600 px; the server keeps no more. */
const MAX_SIDE = 1600;
/** A decompression bomb stops here (a 3 MB file of 8000 x 8000 pixels is refused). */
const MAX_INPUT_PIXELS = 40_000_000;

/** The photo re-encoded as JPEG, or null when its bytes are not a whole image of the declared type. */
export async function reencodePhoto(
  data: Buffer,
  declared: PhotoType,
): Promise<{ contentType: 'image/jpeg'; data: Buffer } | null> {
  try {
    const image = sharp(data, { failOn: 'truncated', limitInputPixels: MAX_INPUT_PIXELS });
    const meta = await image.metadata();
    if (meta.format !== FORMATS[declared]) return null;
    const out = await image
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    return { contentType: 'image/jpeg', data: out };
  } catch {
    return null;
  }
}
