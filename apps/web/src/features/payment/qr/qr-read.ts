/**
 * What a decoded QR code is to the app (docs/product.md#entities-and-their-fields, 'QR scan result'): its
 * content text and the four corners zxing found. Pure: the browser decoder and the Node tests share it.
 */
import type { ReaderOptions } from 'zxing-wasm/reader';

export interface QrPoint {
  x: number;
  y: number;
}

export interface QrLocation {
  topLeft: QrPoint;
  topRight: QrPoint;
  bottomLeft: QrPoint;
  bottomRight: QrPoint;
}

export interface QrRead {
  /** The content as the wallet reads it (see `qrContent`). */
  text: string;
  location: QrLocation;
}

/**
 * One reader configuration for photos, uploads and camera frames: QR codes only, turned or
 * mirrored or inverted (light on dark) codes too, large images downscaled inside the decoder.
 */
export const QR_READER_OPTIONS: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: true,
  tryDownscale: true,
  maxNumberOfSymbols: 4,
};

const GOST_CHARSETS: Record<string, string> = { '1': 'windows-1251', '2': 'utf-8', '3': 'koi8-r' };

/**
 * The content of a code from its raw bytes: a GOST R 56042-2014 code names its own charset in the
 * header (Windows-1251 and KOI8-R codes carry no ECI, so the decoder's guess is wrong for them);
 * anything else is read as UTF-8 when it is valid UTF-8, else the decoder's own text is kept.
 */
export function qrContent(bytes: Uint8Array, decoderText: string): string {
  const head = String.fromCharCode(...bytes.subarray(0, 7));
  const charset = head.startsWith('ST0001') ? GOST_CHARSETS[head[6] ?? ''] : 'utf-8';
  if (charset && bytes.length > 0) {
    try {
      return new TextDecoder(charset, { fatal: true }).decode(bytes);
    } catch {
      // Not that charset after all: the decoder's text is the best reading left.
    }
  }
  return decoderText;
}

/** The reads of zxing's results that are valid QR codes. */
export function toQrReads(
  results: readonly { isValid: boolean; bytes: Uint8Array; text: string; position: QrLocation }[],
): QrRead[] {
  return results
    .filter((result) => result.isValid)
    .map((result) => ({
      text: qrContent(result.bytes, result.text),
      location: {
        topLeft: { ...result.position.topLeft },
        topRight: { ...result.position.topRight },
        bottomLeft: { ...result.position.bottomLeft },
        bottomRight: { ...result.position.bottomRight },
      },
    }));
}

export interface FrameRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The camera's square frame accepts a code only when all four corners of its outline lie inside it. */
export function outlineInside(location: QrLocation, frame: FrameRect): boolean {
  return [location.topLeft, location.topRight, location.bottomLeft, location.bottomRight].every(
    (point) =>
      point.x >= frame.x &&
      point.x <= frame.x + frame.width &&
      point.y >= frame.y &&
      point.y <= frame.y + frame.height,
  );
}

/**
 * The scanner's square frame in video pixels: the view shows the middle square of the video
 * (object-fit: cover in a square), and the frame is `share` of that square, centred.
 */
export function scanFrame(videoWidth: number, videoHeight: number, share = 0.72): FrameRect {
  const side = Math.min(videoWidth, videoHeight) * share;
  return { x: (videoWidth - side) / 2, y: (videoHeight - side) / 2, width: side, height: side };
}
