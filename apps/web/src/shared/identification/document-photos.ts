/**
 * Photos of the document for an operator's review: each picked image is drawn again at most 1600
 * px on its long side as a JPEG (a phone's 12-megapixel photo becomes a few hundred kilobytes, and
 * its EXIF, location included, is left behind), then sent one a call before the document data.
 */
import { callOk } from '../api/client.ts';

export const MAX_PHOTOS = 3;
const LONG_SIDE = 1600;
const QUALITY = 0.85;

export async function asJpeg(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob'))), 'image/jpeg', QUALITY),
  );
}

export async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Sends the photos to the application, one after the other; the server's answer decides each. */
export async function sendPhotos(applicationId: string, files: readonly File[]): Promise<void> {
  for (const file of files)
    await callOk('uploadIdentificationPhoto', {
      body: {
        application_id: applicationId,
        content_type: 'image/jpeg',
        data: await base64Of(await asJpeg(file)),
      },
    });
}
