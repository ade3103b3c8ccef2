/**
 * Parsers of the QR codes a wallet user may scan (docs/decisions/qr-codes.md#qr-codes-we-read). Pure
 * functions: text (or the raw bytes a decoder read) in, a payment description out. Both the app (to show what
 * will be paid) and the server (to pay it) use them, so the two never disagree.
 */

import { displayText } from './plain-text.ts';

export type QrParseResult =
  | { kind: 'wallet'; phone: string; amount: string | null; currency: string }
  | {
      kind: 'gost';
      name: string;
      personalAcc: string;
      bankName: string;
      bic: string;
      correspAcc: string;
      /** Kopecks, when the code names a sum. */
      sum: bigint | null;
      purpose: string | null;
      payeeInn: string | null;
      kpp: string | null;
      /** Other fields of the code, kept as read. */
      extra: Record<string, string>;
    }
  | {
      kind: 'sbp';
      id: string;
      type: 'static' | 'dynamic';
      bank: string | null;
      sum: bigint | null;
      currency: string | null;
    }
  /**
   * A merchant's code (docs/decisions/merchants.md#merchants): a payment's `qr_payload` (`/pay/m/<id>`), or
   * the static code at a till (`/pay/shop/<merchant id>`), the amount typed by the payer; `path` is the app's.
   */
  | { kind: 'merchant'; path: string }
  | { kind: 'invalid'; format: 'wallet' | 'gost' | 'sbp'; reason: QrInvalidReason; field?: string }
  | { kind: 'unsupported'; text: string };

export type QrInvalidReason =
  | 'missing_field'
  | 'bad_account'
  | 'bad_bic'
  | 'bad_checksum'
  | 'bad_sum'
  | 'bad_phone'
  | 'bad_encoding'
  | 'bad_header';

// ---------- our own receive QR ----------

/** `ewallet://pay?to=%2B79991234567&amount=150.00&cur=RUB`; amount optional. */
export const WALLET_QR_PREFIX = 'ewallet://pay';

export function walletQrText(phone: string, amount?: string | null, currency = 'RUB'): string {
  const params = new URLSearchParams({ to: phone });
  if (amount) params.set('amount', amount);
  params.set('cur', currency);
  return `${WALLET_QR_PREFIX}?${params.toString()}`;
}

function parseWalletQr(text: string): QrParseResult {
  const query = text.slice(WALLET_QR_PREFIX.length).replace(/^\?/, '');
  const params = new URLSearchParams(query);
  const phone = params.get('to') ?? '';
  if (!phone) return { kind: 'invalid', format: 'wallet', reason: 'missing_field', field: 'to' };
  if (!/^\+[1-9]\d{7,14}$/.test(phone))
    return { kind: 'invalid', format: 'wallet', reason: 'bad_phone', field: 'to' };
  const amount = params.get('amount');
  if (amount !== null && !/^(0|[1-9]\d{0,14})(\.\d{1,2})?$/.test(amount)) {
    return { kind: 'invalid', format: 'wallet', reason: 'bad_sum', field: 'amount' };
  }
  const currency = (params.get('cur') ?? 'RUB').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    return { kind: 'invalid', format: 'wallet', reason: 'bad_sum', field: 'cur' };
  return { kind: 'wallet', phone, amount: amount && amount !== '0' ? amount : null, currency };
}

// ---------- GOST R 56042-2014 ----------

const GOST_ENCODINGS: Record<string, string> = { '1': 'windows-1251', '2': 'utf-8', '3': 'koi8-r' };

/**
 * The control key of a Russian bank account (Bank of Russia rules): weights 7,1,3 over the
 * 23 digits of (3 BIC digits + 20 account digits); the sum's last digit must be zero.
 */
export function accountChecksumOk(bic: string, account: string, correspondent = false): boolean {
  if (!/^\d{9}$/.test(bic) || !/^\d{20}$/.test(account)) return false;
  const prefix = correspondent ? `0${bic.slice(4, 6)}` : bic.slice(6, 9);
  const digits = prefix + account;
  const weights = [7, 1, 3];
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (Number(digits[i]) * weights[i % 3]!) % 10;
  return sum % 10 === 0;
}

function decodeGostBytes(bytes: Uint8Array): string | null {
  const head = String.fromCharCode(...bytes.slice(0, 7));
  const encoding = GOST_ENCODINGS[head[6] ?? ''];
  if (!head.startsWith('ST0001') || !encoding) return null;
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function parseGost(text: string): QrParseResult {
  const invalid = (reason: QrInvalidReason, field?: string): QrParseResult => ({
    kind: 'invalid',
    format: 'gost',
    reason,
    ...(field ? { field } : {}),
  });
  if (!GOST_ENCODINGS[text[6] ?? '']) return invalid('bad_header');
  // The character after the 7-character header separates the fields (usually '|').
  const separator = text[7];
  if (!separator || /[A-Za-z0-9=]/.test(separator)) return invalid('bad_header');
  const fields: Record<string, string> = {};
  for (const part of text.slice(8).split(separator)) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return invalid('bad_header');
    const key = part.slice(0, eq).trim();
    // Keys are case-insensitive in practice: store the canonical spelling for the known ones.
    const canonical = KNOWN_KEYS.find((k) => k.toLowerCase() === key.toLowerCase()) ?? key;
    if (!(canonical in fields)) fields[canonical] = part.slice(eq + 1).trim();
  }
  for (const required of ['Name', 'PersonalAcc', 'BankName', 'BIC', 'CorrespAcc'] as const) {
    if (!fields[required]) return invalid('missing_field', required);
  }
  const { Name, PersonalAcc, BankName, BIC, CorrespAcc } = fields as Record<string, string>;
  if (!/^\d{9}$/.test(BIC!)) return invalid('bad_bic', 'BIC');
  if (!/^\d{20}$/.test(PersonalAcc!)) return invalid('bad_account', 'PersonalAcc');
  if (!/^(0|\d{20})$/.test(CorrespAcc!)) return invalid('bad_account', 'CorrespAcc');
  if (!accountChecksumOk(BIC!, PersonalAcc!)) return invalid('bad_checksum', 'PersonalAcc');
  if (CorrespAcc !== '0' && !accountChecksumOk(BIC!, CorrespAcc!, true))
    return invalid('bad_checksum', 'CorrespAcc');
  let sum: bigint | null = null;
  if (fields.Sum !== undefined && fields.Sum !== '') {
    if (!/^\d{1,18}$/.test(fields.Sum)) return invalid('bad_sum', 'Sum');
    sum = BigInt(fields.Sum);
    if (sum === 0n) sum = null;
  }
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (!MAIN_KEYS.includes(key)) extra[key] = value;
  }
  return {
    kind: 'gost',
    // Printed on receipts, statements and the verify page: no controls or direction overrides.
    name: displayText(Name!),
    personalAcc: PersonalAcc!,
    bankName: displayText(BankName!),
    bic: BIC!,
    correspAcc: CorrespAcc!,
    sum,
    purpose: fields.Purpose === undefined ? null : displayText(fields.Purpose),
    payeeInn: fields.PayeeINN ?? null,
    kpp: fields.KPP ?? null,
    extra,
  };
}

const MAIN_KEYS = [
  'Name',
  'PersonalAcc',
  'BankName',
  'BIC',
  'CorrespAcc',
  'Sum',
  'Purpose',
  'PayeeINN',
  'KPP',
];
const KNOWN_KEYS = [
  ...MAIN_KEYS,
  'PayerINN',
  'LastName',
  'FirstName',
  'MiddleName',
  'PayerAddress',
  'DocNo',
  'DocDate',
];

// ---------- SBP (Faster Payments System) links ----------

function parseSbp(text: string): QrParseResult {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { kind: 'invalid', format: 'sbp', reason: 'bad_header' };
  }
  const id = url.pathname.replace(/^\//, '');
  if (!/^[A-Z0-9]{10,40}$/i.test(id))
    return { kind: 'invalid', format: 'sbp', reason: 'missing_field', field: 'id' };
  const sumText = url.searchParams.get('sum');
  if (sumText !== null && !/^\d{1,18}$/.test(sumText))
    return { kind: 'invalid', format: 'sbp', reason: 'bad_sum', field: 'sum' };
  return {
    kind: 'sbp',
    id,
    type: url.searchParams.get('type') === '02' ? 'dynamic' : 'static',
    bank: url.searchParams.get('bank'),
    sum: sumText ? BigInt(sumText) : null,
    currency: url.searchParams.get('cur'),
  };
}

/** A merchant's code: the wallet's address of a payment or of a shop's till, whatever the host. */
const MERCHANT_QR =
  /^https?:\/\/[^/\s]+\/pay\/(m|shop)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/** Reads any QR content: the decoded text, or the raw bytes (needed for Windows-1251 / KOI8-R GOST codes). */
export function parseQr(input: string | Uint8Array): QrParseResult {
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    const gost = decodeGostBytes(input);
    if (gost === null && String.fromCharCode(...input.slice(0, 6)) === 'ST0001') {
      return { kind: 'invalid', format: 'gost', reason: 'bad_encoding' };
    }
    text = gost ?? new TextDecoder('utf-8').decode(input);
  }
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.startsWith('ST0001')) return parseGost(trimmed);
  if (trimmed.toLowerCase().startsWith(WALLET_QR_PREFIX)) return parseWalletQr(trimmed);
  if (/^https:\/\/qr\.nspk\.ru\//i.test(trimmed)) return parseSbp(trimmed);
  const merchant = MERCHANT_QR.exec(trimmed);
  if (merchant)
    return { kind: 'merchant', path: `/pay/${merchant[1]!.toLowerCase()}/${merchant[2]!.toLowerCase()}` };
  return { kind: 'unsupported', text: trimmed.slice(0, 500) };
}
