/**
 * The QR decoder in the browser: zxing-wasm, bundled with the app, its WebAssembly served from our
 * own origin (docs/decisions/placeholders-and-defects.md#defects-are-fixed: nothing from a CDN; the CSP
 * allows only 'self'). The module and its .wasm are fetched the first time the payment page decodes
 * something, not before.
 */
import { DECODE_BOX, fitWithin, type QrImageProblem, qrFileProblem, qrUrlProblem } from './image-checks.ts';
import { QR_READER_OPTIONS, type QrRead, toQrReads } from './qr-read.ts';

type Reader = typeof import('zxing-wasm/reader');

let reader: Promise<Reader> | null = null;

/** Loads zxing once; a failed load is forgotten so the next attempt tries again. */
export function loadQrReader(): Promise<Reader> {
  reader ??= (async () => {
    const [zxing, wasm] = await Promise.all([
      import('zxing-wasm/reader'),
      import('zxing-wasm/reader/zxing_reader.wasm?url'),
    ]);
    const wasmUrl = wasm.default;
    zxing.prepareZXingModule({
      overrides: {
        locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
      },
      fireImmediately: true,
    });
    return zxing;
  })().catch((error: unknown) => {
    reader = null;
    throw error;
  });
  return reader;
}

/** Decodes pixels (a canvas's ImageData): every valid QR code found, with its outline. */
export async function decodeQrPixels(pixels: ImageData): Promise<QrRead[]> {
  const zxing = await loadQrReader();
  return toQrReads(await zxing.readBarcodes(pixels, QR_READER_OPTIONS));
}

export class QrImageError extends Error {
  readonly problem: QrImageProblem | 'unreadable';
  constructor(problem: QrImageProblem | 'unreadable') {
    super(problem);
    this.name = 'QrImageError';
    this.problem = problem;
  }
}

/**
 * Draws an image scaled to fit 1920x1080 (docs/product.md#business-constants-and-limits) and reads its
 * pixels.
 */
function pixelsOf(image: CanvasImageSource, width: number, height: number): ImageData {
  const size = fitWithin(width, height, DECODE_BOX);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new QrImageError('unreadable');
  context.drawImage(image, 0, 0, size.width, size.height);
  return context.getImageData(0, 0, size.width, size.height);
}

function loadImage(address: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.decoding = 'async';
    image.onload = () => resolve(image);
    image.onerror = () => reject(new QrImageError('unreadable'));
    image.src = address;
  });
}

/**
 * Reads the QR codes of an image at an address. The address is checked before anything loads: an
 * image from another origin is refused as a security problem.
 */
export async function decodeQrImageUrl(address: string): Promise<QrRead[]> {
  const problem = qrUrlProblem(address, window.location.origin);
  if (problem) throw new QrImageError(problem);
  const image = await loadImage(address);
  return decodeQrPixels(pixelsOf(image, image.naturalWidth, image.naturalHeight));
}

/** Reads the QR codes of a chosen or dropped file; a file that is not PNG or JPEG is refused first. */
export async function decodeQrImageFile(file: File): Promise<QrRead[]> {
  const problem = qrFileProblem(file);
  if (problem) throw new QrImageError(problem);
  const address = URL.createObjectURL(file);
  try {
    return await decodeQrImageUrl(address);
  } finally {
    URL.revokeObjectURL(address);
  }
}
