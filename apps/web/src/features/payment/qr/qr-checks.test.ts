/**
 * The payment page's pure rules: which files and addresses are read, what each kind of QR content
 * shows (payable or not), typed amounts, the content of GOST codes in their own charsets, and the
 * scanner frame's acceptance of an outline.
 */
import { walletQrText } from '@e-wallet/contract/qr';
import { describe, expect, it } from 'vitest';
import { fitWithin, qrFileProblem, qrUrlProblem } from './image-checks.ts';
import { isPayable, qrPaymentView, typedAmount } from './qr-payment-view.ts';
import { outlineInside, qrContent, scanFrame } from './qr-read.ts';

const ORIGIN = 'https://wallet.example.ru';
const GOST =
  'ST00012|Name=ООО «Три кита»|PersonalAcc=40702810200000012345|BankName=ПАО Сбербанк|BIC=044525225|CorrespAcc=30101810400000000225';

describe('QR image files', () => {
  it.each([
    [{ type: 'image/png', name: 'qr.png' }, null],
    [{ type: 'image/jpeg', name: 'photo.jpg' }, null],
    [{ type: 'IMAGE/PNG', name: 'QR.PNG' }, null],
    [{ type: '', name: 'from-camera.JPEG' }, null],
    [{ type: 'text/plain', name: 'notes.txt' }, 'wrong_type'],
    [{ type: 'image/svg+xml', name: 'qr.svg' }, 'wrong_type'],
    [{ type: 'application/pdf', name: 'invoice.pdf' }, 'wrong_type'],
    [{ type: 'image/gif', name: 'qr.png' }, 'wrong_type'],
    [{ type: '', name: 'qr.webp' }, 'wrong_type'],
  ])('%o -> %s', (file, problem) => {
    expect(qrFileProblem(file)).toBe(problem);
  });
});

describe('QR image addresses', () => {
  it.each([
    ['/uploads/qr.png', null],
    [`${ORIGIN}/a/qr.jpg`, null],
    [`blob:${ORIGIN}/5b1c7a3e-8f1e-4f7b-9d5c-1b2f1e0c9a11`, null],
    ['data:image/png;base64,iVBORw0KGgo=', null],
    ['https://evil.example.com/qr.png', 'cross_origin'],
    ['http://wallet.example.ru/qr.png', 'cross_origin'],
    ['https://wallet.example.ru:8443/qr.png', 'cross_origin'],
    ['blob:https://evil.example.com/5b1c7a3e', 'cross_origin'],
    ['//evil.example.com/qr.png', 'cross_origin'],
    ['javascript:alert(1)', 'cross_origin'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'wrong_type'],
  ])('%s -> %s', (address, problem) => {
    expect(qrUrlProblem(address, ORIGIN)).toBe(problem);
  });

  it('fits decoding canvases within 1920x1080, never enlarging', () => {
    expect(fitWithin(1080, 1920)).toMatchObject({ width: 608, height: 1080 });
    expect(fitWithin(1920, 1080)).toEqual({ width: 1920, height: 1080, scale: 1 });
    expect(fitWithin(0, 10)).toEqual({ width: 0, height: 0, scale: 0 });
  });
});

describe('what a QR content shows', () => {
  it('our own receive QR: a payable transfer with its amount, or none', () => {
    expect(qrPaymentView(walletQrText('+79991234567', '150.50'))).toEqual({
      kind: 'wallet',
      qr: 'ewallet://pay?to=%2B79991234567&amount=150.50&cur=RUB',
      phone: '+79991234567',
      amount: '150.50',
      currency: 'RUB',
    });
    const open = qrPaymentView(walletQrText('+79991234567'));
    expect(open).toMatchObject({ kind: 'wallet', amount: null });
    expect(isPayable(open)).toBe(true);
  });

  it('GOST: payee, bank, account, and the sum in kopecks as roubles', () => {
    const view = qrPaymentView(`${GOST}|Sum=12345|Purpose=Счёт 7`);
    expect(view).toMatchObject({
      kind: 'gost',
      payee: 'ООО «Три кита»',
      bank: 'ПАО Сбербанк',
      bic: '044525225',
      account: '40702810200000012345',
      amount: '123.45',
      purpose: 'Счёт 7',
      currency: 'RUB',
    });
    expect(isPayable(view)).toBe(true);
    expect(qrPaymentView(GOST)).toMatchObject({ kind: 'gost', amount: null });
  });

  it('GOST with a broken account key or a missing field is invalid, with the field named', () => {
    expect(qrPaymentView(GOST.replace('40702810200000012345', '40702810200000012346'))).toMatchObject({
      kind: 'invalid',
      reason: 'bad_checksum',
      field: 'PersonalAcc',
    });
    const noBank = qrPaymentView(GOST.replace('|BankName=ПАО Сбербанк', ''));
    expect(noBank).toMatchObject({ kind: 'invalid', reason: 'missing_field', field: 'BankName' });
    expect(isPayable(noBank)).toBe(false);
  });

  it('SBP: shown with its amount but not payable; anything else unsupported with what was read', () => {
    const sbp = qrPaymentView(
      'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000111&sum=10000&cur=RUB',
    );
    expect(sbp).toMatchObject({ kind: 'sbp', bank: '100000000111', amount: '100.00' });
    expect(isPayable(sbp)).toBe(false);
    const other = qrPaymentView('WIFI:T:WPA;S:cafe;P:secret;;');
    expect(other).toEqual({ kind: 'unsupported', qr: 'WIFI:T:WPA;S:cafe;P:secret;;' });
    expect(isPayable(other)).toBe(false);
  });

  it('typed amounts become wire strings; wrong ones name the reason', () => {
    expect(typedAmount('99,9', 'RUB')).toEqual({ ok: true, amount: '99.90' });
    expect(typedAmount(' 1 500 ', 'RUB')).toEqual({ ok: true, amount: '1500.00' });
    expect(typedAmount('0', 'RUB')).toEqual({ ok: false, error: 'AMOUNT_NOT_POSITIVE' });
    expect(typedAmount('1.005', 'RUB')).toEqual({ ok: false, error: 'AMOUNT_TOO_PRECISE' });
    expect(typedAmount('abc', 'RUB')).toEqual({ ok: false, error: 'AMOUNT_INVALID' });
  });
});

describe('QR content from raw bytes', () => {
  it('reads a KOI8-R GOST code by its header, UTF-8 otherwise, and falls back to the decoder text', () => {
    // "ST00013|Name=Ток" in KOI8-R: Т=0xF4, о=0xCF, к=0xCB.
    const koi8 = new Uint8Array([...new TextEncoder().encode('ST00013|Name='), 0xf4, 0xcf, 0xcb]);
    expect(qrContent(koi8, 'garbled')).toBe('ST00013|Name=Ток');
    expect(qrContent(new TextEncoder().encode('ewallet://pay?to=%2B7'), 'x')).toBe('ewallet://pay?to=%2B7');
    // Not valid UTF-8 and not GOST: the decoder's own reading stays.
    expect(qrContent(new Uint8Array([0xff, 0xfe, 0x41]), 'ÿþA')).toBe('ÿþA');
  });
});

describe('the scanner frame', () => {
  const frame = scanFrame(1280, 720);
  const square = (x: number, y: number, side: number) => ({
    topLeft: { x, y },
    topRight: { x: x + side, y },
    bottomLeft: { x, y: y + side },
    bottomRight: { x: x + side, y: y + side },
  });

  it('is a centred square of 72% of the short side', () => {
    expect(frame.width).toBeCloseTo(518.4);
    expect(frame.x + frame.width / 2).toBeCloseTo(640);
    expect(frame.y + frame.height / 2).toBeCloseTo(360);
  });

  it('accepts an outline only when all four corners are inside', () => {
    expect(outlineInside(square(500, 200, 200), frame)).toBe(true);
    expect(outlineInside(square(frame.x, frame.y, frame.width), frame)).toBe(true);
    expect(outlineInside(square(frame.x - 1, 200, 100), frame)).toBe(false);
    const tilted = square(500, 200, 200);
    tilted.bottomRight = { x: 900, y: 700 };
    expect(outlineInside(tilted, frame)).toBe(false);
  });
});
