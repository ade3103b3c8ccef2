import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountChecksumOk, parseQr, walletQrText } from './qr.ts';

// Sberbank's published requisites: BIC and correspondent account with a valid control key.
const BIC = '044525225';
const CORR = '30101810400000000225';
/** Sets the control digit (the 9th) of a 20-digit account so the checksum holds for the BIC. */
function withControlKey(bic: string, account: string): string {
  for (let d = 0; d <= 9; d++) {
    const candidate = `${account.slice(0, 8)}${d}${account.slice(9)}`;
    if (accountChecksumOk(bic, candidate)) return candidate;
  }
  throw new Error('no control key');
}
const ACC = withControlKey(BIC, '40702810000000012345');

function gost(fields: string, flag = '2'): string {
  return `ST0001${flag}|${fields}`;
}
const BASE = `Name=ООО «Три кита»|PersonalAcc=${ACC}|BankName=ПАО Сбербанк|BIC=${BIC}|CorrespAcc=${CORR}`;

describe('bank account control key', () => {
  it('accepts the published Sberbank correspondent account and rejects a changed digit', () => {
    expect(accountChecksumOk(BIC, CORR, true)).toBe(true);
    expect(accountChecksumOk(BIC, `${CORR.slice(0, 19)}6`, true)).toBe(false);
  });
  it('detects every single-digit change of a valid account', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 19 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const digit = (Number(ACC[position]) + delta) % 10;
        const changed = ACC.slice(0, position) + digit + ACC.slice(position + 1);
        expect(accountChecksumOk(BIC, changed)).toBe(false);
      }),
    );
  });
});

describe('GOST R 56042-2014 payment codes', () => {
  it('reads the required and optional fields, sum in kopecks', () => {
    const result = parseQr(
      gost(`${BASE}|Sum=150050|Purpose=Оплата по счёту №7|PayeeINN=7707083893|KPP=773601001`),
    );
    expect(result).toEqual({
      kind: 'gost',
      name: 'ООО «Три кита»',
      personalAcc: ACC,
      bankName: 'ПАО Сбербанк',
      bic: BIC,
      correspAcc: CORR,
      sum: 150050n,
      purpose: 'Оплата по счёту №7',
      payeeInn: '7707083893',
      kpp: '773601001',
      extra: {},
    });
  });
  it('keeps extra fields and tolerates a sum-less code', () => {
    const result = parseQr(gost(`${BASE}|LastName=Иванов|DocNo=12`));
    expect(result.kind).toBe('gost');
    if (result.kind !== 'gost') return;
    expect(result.sum).toBeNull();
    expect(result.extra).toEqual({ LastName: 'Иванов', DocNo: '12' });
  });
  it('reads another separator character named by the header', () => {
    const result = parseQr(`ST00012#${BASE.replaceAll('|', '#')}#Sum=100`);
    expect(result).toMatchObject({ kind: 'gost', sum: 100n });
  });
  it('decodes Windows-1251 and KOI8-R bytes by the encoding flag', () => {
    const text = gost(`${BASE}|Sum=100`, '1');
    const cp1251 = encodeSingleByte(text, 'windows-1251');
    expect(parseQr(cp1251)).toMatchObject({ kind: 'gost', name: 'ООО «Три кита»', bankName: 'ПАО Сбербанк' });
    // KOI8-R has no guillemets: a plain name.
    const koi = encodeSingleByte(
      gost(`${BASE.replace('ООО «Три кита»', 'ИП Петров')}|Sum=100`, '3'),
      'koi8-r',
    );
    expect(parseQr(koi)).toMatchObject({ kind: 'gost', name: 'ИП Петров', bankName: 'ПАО Сбербанк' });
    expect(parseQr(new TextEncoder().encode(gost(BASE, '2')))).toMatchObject({ kind: 'gost' });
  });
  it('names each missing required field', () => {
    for (const field of ['Name', 'PersonalAcc', 'BankName', 'BIC', 'CorrespAcc']) {
      const without = BASE.split('|')
        .filter((part) => !part.startsWith(`${field}=`))
        .join('|');
      expect(parseQr(gost(without))).toEqual({
        kind: 'invalid',
        format: 'gost',
        reason: 'missing_field',
        field,
      });
    }
  });
  it('rejects malformed accounts, BIC, checksums and sums', () => {
    expect(parseQr(gost(BASE.replace(`BIC=${BIC}`, 'BIC=04452522')))).toMatchObject({ reason: 'bad_bic' });
    expect(parseQr(gost(BASE.replace(ACC, `${ACC}1`)))).toMatchObject({ reason: 'bad_account' });
    const wrongKey = ACC.slice(0, 8) + ((Number(ACC[8]) + 1) % 10) + ACC.slice(9);
    expect(parseQr(gost(BASE.replace(ACC, wrongKey)))).toMatchObject({
      reason: 'bad_checksum',
      field: 'PersonalAcc',
    });
    expect(parseQr(gost(BASE.replace(CORR, '30101810400000000226')))).toMatchObject({
      reason: 'bad_checksum',
      field: 'CorrespAcc',
    });
    expect(parseQr(gost(`${BASE}|Sum=12.50`))).toMatchObject({ reason: 'bad_sum' });
    expect(parseQr(gost(`${BASE}|Sum=-5`))).toMatchObject({ reason: 'bad_sum' });
  });
  it('rejects unknown encoding flags and broken headers', () => {
    expect(parseQr(`ST00019|${BASE}`)).toMatchObject({ kind: 'invalid', reason: 'bad_header' });
    expect(parseQr(`ST00012${BASE}`)).toMatchObject({ kind: 'invalid', reason: 'bad_header' });
    expect(parseQr(new Uint8Array([...new TextEncoder().encode('ST00012|Name='), 0xff, 0xfe]))).toMatchObject(
      {
        reason: 'bad_encoding',
      },
    );
  });
});

describe('own receive codes', () => {
  it('round-trips phone, amount and currency', () => {
    expect(parseQr(walletQrText('+79991234567', '150.00'))).toEqual({
      kind: 'wallet',
      phone: '+79991234567',
      amount: '150.00',
      currency: 'RUB',
    });
    expect(parseQr(walletQrText('+447700900123'))).toEqual({
      kind: 'wallet',
      phone: '+447700900123',
      amount: null,
      currency: 'RUB',
    });
  });
  it('rejects a bad phone or amount', () => {
    expect(parseQr('ewallet://pay?to=79991234567')).toMatchObject({ kind: 'invalid', reason: 'bad_phone' });
    expect(parseQr('ewallet://pay?amount=5')).toMatchObject({ kind: 'invalid', reason: 'missing_field' });
    expect(parseQr('ewallet://pay?to=%2B79991234567&amount=1.234')).toMatchObject({ reason: 'bad_sum' });
  });
});

describe('SBP links and anything else', () => {
  it('reads an SBP link', () => {
    expect(
      parseQr(
        'https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000001&sum=10000&cur=RUB&crc=AB75',
      ),
    ).toEqual({
      kind: 'sbp',
      id: 'AS1000670LSS7DN18SJQDNP4B05KLJL2',
      type: 'static',
      bank: '100000000001',
      sum: 10000n,
      currency: 'RUB',
    });
  });
  it("reads a merchant's codes as the app's pages: a payment's qr_payload and a till's static code", () => {
    const id = '0b7c6d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e';
    expect(parseQr(`https://wallet.example/pay/m/${id}`)).toEqual({ kind: 'merchant', path: `/pay/m/${id}` });
    expect(parseQr(`http://127.0.0.1:5310/pay/shop/${id.toUpperCase()}/`)).toEqual({
      kind: 'merchant',
      path: `/pay/shop/${id}`,
    });
    expect(parseQr(`https://wallet.example/pay/m/${id}/../../admin`)).toMatchObject({ kind: 'unsupported' });
    expect(parseQr('https://wallet.example/pay/m/not-an-id')).toMatchObject({ kind: 'unsupported' });
  });
  it('calls anything else unsupported and keeps what was read', () => {
    expect(parseQr('hello world')).toEqual({ kind: 'unsupported', text: 'hello world' });
    expect(parseQr('https://example.com/pay')).toMatchObject({ kind: 'unsupported' });
  });
});

/** Encodes text in a single-byte Cyrillic code page (TextEncoder only writes UTF-8). */
function encodeSingleByte(text: string, encoding: string): Uint8Array {
  const decoder = new TextDecoder(encoding);
  const table = new Map<string, number>();
  for (let byte = 0; byte < 256; byte++) table.set(decoder.decode(new Uint8Array([byte])), byte);
  return new Uint8Array([...text].map((ch) => table.get(ch) ?? 0x3f));
}
