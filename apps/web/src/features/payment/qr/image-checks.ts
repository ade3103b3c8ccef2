/**
 * What the payment page accepts before any decoding (docs/product.md#validation-rules, 'QR image'): a PNG
 * or JPEG file (the upload labels name those), and an image address only from our own origin; the
 * size an image is scaled to before decoding (docs/product.md#business-constants-and-limits: a 1920x1080
 * canvas).
 */

export const QR_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export const QR_IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';
export const DECODE_BOX = { width: 1920, height: 1080 } as const;

export type QrImageProblem = 'wrong_type' | 'cross_origin';

/**
 * A file is a QR image when its type is PNG or JPEG; a file without a type (some drag sources)
 * is judged by its extension. Anything else, text or PDF or an SVG, is a wrong file type.
 */
export function qrFileProblem(file: { type: string; name: string }): QrImageProblem | null {
  const type = file.type.toLowerCase();
  if (type) return (QR_IMAGE_TYPES as readonly string[]).includes(type) ? null : 'wrong_type';
  return /\.(png|jpe?g)$/i.test(file.name) ? null : 'wrong_type';
}

/**
 * An image given by address (dragged from a page, for example) is read only from our own origin:
 * a foreign image would taint the canvas, and reading other sites' pictures is not ours to do.
 * Blob addresses carry the origin that made them; `data:` images never leave the page.
 */
export function qrUrlProblem(address: string, origin: string): QrImageProblem | null {
  let url: URL;
  try {
    url = new URL(address, origin);
  } catch {
    return 'cross_origin';
  }
  if (url.protocol === 'data:') return /^data:image\/(png|jpeg)[;,]/i.test(address) ? null : 'wrong_type';
  return url.origin === origin ? null : 'cross_origin';
}

/** The size an image is drawn at for decoding: scaled down to fit the box, never up, aspect kept. */
export function fitWithin(
  width: number,
  height: number,
  box: { width: number; height: number } = DECODE_BOX,
): { width: number; height: number; scale: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0, scale: 0 };
  const scale = Math.min(1, box.width / width, box.height / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
    scale,
  };
}
