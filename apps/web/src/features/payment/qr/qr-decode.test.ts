// @vitest-environment node
/**
 * The decoder the app ships (zxing-wasm, with the app's reader options and content rules) reading
 * QR images generated here: the plain PNG the `qrcode` package writes, and raw pixels turned,
 * scaled, noisy, small, inverted, and placed in a 1920x1080 photo. Every read is then parsed the
 * way the payment page parses it. A blank image must read nothing, so these tests can fail.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseQr, walletQrText } from '@e-wallet/contract/qr';
import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import {
  blank,
  inverted,
  noisy,
  photoGround,
  placeOn,
  type Rgba,
  renderQr,
  rotate,
  scale,
} from '../../../../test/qr-images.ts';
import { fitWithin } from './image-checks.ts';
import { outlineInside, QR_READER_OPTIONS, type QrRead, scanFrame, toQrReads } from './qr-read.ts';

const WALLET = walletQrText('+79991234567', '150.50');
// Sberbank's published BIC and correspondent account; the account carries a valid control key.
const GOST =
  'ST00012|Name=ООО «Три кита»|PersonalAcc=40702810200000012345|BankName=ПАО Сбербанк|BIC=044525225|CorrespAcc=30101810400000000225|Sum=125000|Purpose=Оплата по счёту №17';

beforeAll(() => {
  const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
  const wasm = readFileSync(wasmPath);
  prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
  });
});

async function read(image: Rgba | Uint8Array): Promise<QrRead[]> {
  return toQrReads(await readBarcodes(image as unknown as ImageData, QR_READER_OPTIONS));
}

async function readOne(image: Rgba | Uint8Array): Promise<string> {
  const reads = await read(image);
  expect(reads).toHaveLength(1);
  return reads[0]!.text;
}

describe('decoding generated QR images', () => {
  it('reads the PNG file the qrcode package writes (our receive QR) and parses it', async () => {
    const png = await QRCode.toBuffer(WALLET, { type: 'png', scale: 6 });
    const text = await readOne(new Uint8Array(png));
    expect(text).toBe(WALLET);
    expect(parseQr(text)).toEqual({
      kind: 'wallet',
      phone: '+79991234567',
      amount: '150.50',
      currency: 'RUB',
    });
  });

  it('reads a UTF-8 GOST code from pixels and parses payee, bank and sum', async () => {
    const text = await readOne(renderQr(GOST, { moduleSize: 4 }));
    expect(text).toBe(GOST);
    const parsed = parseQr(text);
    expect(parsed).toMatchObject({
      kind: 'gost',
      name: 'ООО «Три кита»',
      bankName: 'ПАО Сбербанк',
      sum: 125000n,
      purpose: 'Оплата по счёту №17',
    });
  });

  it('reads a Windows-1251 GOST code (no ECI) by the charset its header names', async () => {
    const text1251 = GOST.replace('ST00012', 'ST00011');
    const bytes = new Uint8Array(new TextEncoder().encode(text1251).length);
    // Encode to Windows-1251 by hand: ASCII as is, Cyrillic А..я at 0xC0..0xFF, Ё/ё, « », №.
    const special: Record<string, number> = { Ё: 0xa8, ё: 0xb8, '«': 0xab, '»': 0xbb, '№': 0xb9 };
    let length = 0;
    for (const char of text1251) {
      const code = char.codePointAt(0)!;
      bytes[length++] =
        special[char] ?? (code >= 0x410 && code <= 0x44f ? code - 0x410 + 0xc0 : code < 0x80 ? code : 0x3f);
    }
    const text = await readOne(renderQr(bytes.subarray(0, length), { moduleSize: 4 }));
    expect(text).toBe(text1251);
    expect(parseQr(text)).toMatchObject({ kind: 'gost', name: 'ООО «Три кита»', bankName: 'ПАО Сбербанк' });
  });

  it.each([7, 30, 45, 90, 163, 270])('reads a code turned by %i degrees', async (degrees) => {
    expect(await readOne(rotate(renderQr(WALLET), degrees))).toBe(WALLET);
  });

  it.each([0.45, 0.7, 1.6, 3])('reads a code scaled by %f', async (factor) => {
    expect(await readOne(scale(renderQr(WALLET, { moduleSize: 5 }), factor))).toBe(WALLET);
  });

  it('reads a noisy code (sensor noise and 0.5% specks)', async () => {
    expect(await readOne(noisy(renderQr(GOST, { moduleSize: 5 }), 60, 0.005))).toBe(GOST);
  });

  it('reads a noisy, turned and scaled code together', async () => {
    const image = noisy(scale(rotate(renderQr(WALLET, { moduleSize: 6 }), 21), 0.8), 40, 0.003, 11);
    expect(await readOne(image)).toBe(WALLET);
  });

  it('reads a small code: 2 pixels a module, about 70 pixels across', async () => {
    const small = renderQr(WALLET, { moduleSize: 2, quiet: 2 });
    expect(small.width).toBeLessThan(80);
    expect(await readOne(small)).toBe(WALLET);
  });

  it('reads an inverted code (light modules on dark)', async () => {
    expect(await readOne(inverted(renderQr(WALLET)))).toBe(WALLET);
  });

  it('finds a small code in a 1920x1080 photo and reports its outline where it is', async () => {
    const code = rotate(renderQr(WALLET, { moduleSize: 5 }), 12, 200);
    const photo = noisy(placeOn(code, photoGround(1920, 1080), 1300, 600), 12, 0, 5);
    const started = performance.now();
    const reads = await read(photo);
    const took = performance.now() - started;
    expect(reads.map((r) => r.text)).toEqual([WALLET]);
    const { topLeft, bottomRight } = reads[0]!.location;
    for (const point of [topLeft, bottomRight]) {
      expect(point.x).toBeGreaterThan(1300);
      expect(point.x).toBeLessThan(1300 + code.width);
      expect(point.y).toBeGreaterThan(600);
      expect(point.y).toBeLessThan(600 + code.height);
    }
    console.info(`decoding a 1920x1080 photo took ${took.toFixed(0)} ms`);
    expect(took).toBeLessThan(3000);
  });

  it('a photo larger than 1920x1080 is drawn at most that size, aspect kept', () => {
    expect(fitWithin(4032, 3024)).toMatchObject({ width: 1440, height: 1080 });
    expect(fitWithin(3000, 1000)).toMatchObject({ width: 1920, height: 640 });
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600, scale: 1 });
  });

  it('reads nothing from a blank image or from a code with its middle torn out', async () => {
    expect(await read(blank(400, 300))).toEqual([]);
    const torn = renderQr(WALLET, { moduleSize: 4, level: 'L' });
    const middle = blank(torn.width / 2, torn.height / 2, 0);
    expect(await read(placeOn(middle, torn, torn.width / 4, torn.height / 4))).toEqual([]);
  });
});

describe('the camera frame', () => {
  it('accepts a code whose four corners lie inside the square frame, not one that crosses its edge', async () => {
    const code = renderQr(WALLET, { moduleSize: 4 });
    const frame = scanFrame(1280, 720);
    expect(frame).toEqual({ x: 1280 / 2 - 259.2, y: 360 - 259.2, width: 518.4, height: 518.4 });
    const inside = await read(
      placeOn(code, photoGround(1280, 720), 640 - code.width / 2, 360 - code.height / 2),
    );
    expect(outlineInside(inside[0]!.location, frame)).toBe(true);
    const acrossEdge = await read(placeOn(code, photoGround(1280, 720), 1280 - code.width - 10, 20));
    expect(acrossEdge).toHaveLength(1);
    expect(outlineInside(acrossEdge[0]!.location, frame)).toBe(false);
  });
});
