/**
 * QR material for the payment browser tests, made in the test: PNG images with the `qrcode` package,
 * a Y4M video (text header + raw I420 frames) of a code for Chromium's fake camera, and an
 * identification upgrade through the real sandbox KYC form (transfers to people need 'simplified').
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import { type Person, termsVersion } from './wallet-fixtures.ts';

export function walletQr(phone: string, amount?: string): string {
  const params = new URLSearchParams({ to: phone });
  if (amount) params.set('amount', amount);
  params.set('cur', 'RUB');
  return `ewallet://pay?${params.toString()}`;
}

export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', scale: 8, margin: 4, errorCorrectionLevel: 'M' });
}

/**
 * A Y4M video (5 frames a second) of a code on a grey picture: first `cornerFrames` frames with the
 * code in the top-left corner, across the edge of the scanner's square frame (72% of the short side,
 * centred), then `centreFrames` frames with the code in the middle, inside that frame.
 */
export function qrY4m(
  text: string,
  { width = 640, height = 480, moduleSize = 7, cornerFrames = 20, centreFrames = 10 } = {},
): Buffer {
  const matrix = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  const quiet = 4;
  const side = (matrix.size + quiet * 2) * moduleSize;
  const picture = (left: number, top: number) => {
    const luma = Buffer.alloc(width * height, 150);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const row = Math.floor(y / moduleSize) - quiet;
        const col = Math.floor(x / moduleSize) - quiet;
        const dark = row >= 0 && col >= 0 && row < matrix.size && col < matrix.size && matrix.get(row, col);
        luma[(top + y) * width + left + x] = dark ? 16 : 235;
      }
    }
    const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
    return Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  };
  const corner = picture(4, 4);
  const centre = picture(Math.floor((width - side) / 2), Math.floor((height - side) / 2));
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F5:1 Ip A1:1 C420jpeg\n`);
  return Buffer.concat([
    header,
    ...Array.from({ length: cornerFrames }, () => corner),
    ...Array.from({ length: centreFrames }, () => centre),
  ]);
}

export function tempFile(name: string, content: Buffer | string): string {
  const dir = join(tmpdir(), `ewallet-payment-e2e-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Drops a file on an element the way a browser does: dragenter, dragover, drop with a DataTransfer. */
export async function dropFile(
  page: Page,
  target: Locator,
  file: { name: string; type: string; bytes: Buffer },
) {
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type }));
      return transfer;
    },
    { base64: file.bytes.toString('base64'), name: file.name, type: file.type },
  );
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await expect(target).toHaveClass(/qr-drop--active/);
  await target.dispatchEvent('drop', { dataTransfer });
  await expect(target).not.toHaveClass(/qr-drop--active/);
}

/** Registers a person with a given phone (the camera test's video names the payee before the test runs). */
export async function registerWithPhone(
  request: APIRequestContext,
  phone: string,
  firstName: string,
  lastName: string,
) {
  const email = `qr.${phone.slice(1)}@example.ru`;
  const started = await request.post('/v2/wallet/auth/register', {
    data: {
      first_name: firstName,
      last_name: lastName,
      phone,
      email,
      terms_version: await termsVersion(request),
    },
  });
  expect(started.ok(), await started.text()).toBe(true);
  let code = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
      code = (await answer.json()).results?.[0]?.code ?? '';
      return code;
    })
    .toMatch(/^\d{4}$/);
  const confirmed = await request.post('/v2/wallet/auth/register/phone/confirm', {
    data: { phone, confirm_code: code },
  });
  expect(confirmed.ok(), await confirmed.text()).toBe(true);
  const { auth_token: token } = (await confirmed.json()) as { auth_token: string };
  const pin = await request.post('/v2/wallet/auth/register/set/pin', {
    data: { pin_code: '2468' },
    headers: { Authorization: `Token ${token}` },
  });
  expect(pin.ok(), await pin.text()).toBe(true);
  return { firstName, lastName, email, national: phone.slice(2), phone, token } satisfies Person;
}
