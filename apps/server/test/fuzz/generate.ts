/**
 * The contract fuzzer's request generator. Every request is derived from the contract's call table
 * (packages/contract calls.ts): its method, path, access and the zod schemas of its body, query and
 * path parameters. A valid request is built first from the schema's fields (values from the test
 * world: the user's own account, order, payout, PIN), then one thing is broken: a field missing,
 * an extra field, a wrong type, a hostile string, an amount beyond the currency's digits, the body's
 * JSON, its content type, the token, the signature, the idempotency key, a path parameter.
 *
 * Seeded (mulberry32), so a failing request is reproduced by its seed and index.
 */
import { randomBytes } from 'node:crypto';
import { type CallDef, type CallName, calls, walletQrText } from '@e-wallet/contract';

export interface World {
  pin: string;
  ownPhone: string;
  recipientPhone: string;
  accountId: string;
  orderId: string;
  withdrawalId: string;
  notificationId: string;
  otherSessionId: string;
  now: () => Date;
  freshPhone: () => string;
  /** A phone without a wallet, used in lockstep with ownPhone: their answers must be alike. */
  unknownPhone: string;
}

export type AuthKind = 'valid' | 'none' | 'forged' | 'expired' | 'revoked' | 'malformed' | 'other-scheme';
export type SignatureKind = 'none' | 'forged' | 'stale' | 'malformed' | 'valid';

export interface FuzzCase {
  call: CallName | null;
  /** What was broken, for the summary and for failure reports. */
  category: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  auth: AuthKind;
  signature: SignatureKind;
  /** The same request for another phone (known against unknown): the answers must be alike. */
  twin?: { url: string; payload?: string; phones: [string, string] };
  /** The refusal this request must get. */
  expectCode?: string;
  /** The client address the request (and its twin) comes from; 127.0.0.1 otherwise. */
  remoteAddress?: string;
}

// ---------- seeded randomness ----------

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

// ---------- hostile values ----------

export const SQL_INJECTIONS = [
  "' OR '1'='1",
  "1'; DROP TABLE users; --",
  "'; UPDATE ledger_accounts SET balance = balance + 100000; --",
  '" OR ""="',
  '1 UNION SELECT token_hash FROM sessions --',
  "admin'--",
  "') OR pg_sleep(5) --",
  '$1',
  '\\x00',
  "%' AND 1=1 AND '%'='",
];
export const HTML_INJECTIONS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "javascript:alert('x')",
  '<svg/onload=alert(1)>',
  '{{7*7}}',
  ['$', '{7*7}'].join(''),
  '<iframe src="https://evil.example">',
];
export const UNICODE_STRINGS = [
  'Иван',
  '😀💸🏦',
  '\u202Eevil\u202C',
  'a\u200Bb\u200Dc\uFEFF',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u0007\u001b[31m',
  'ﬀ𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '١٢٣٤',
  '１２３４',
  '\r\n\t',
  ' ',
  '',
];
export const NUMERIC_STRINGS = [
  '0',
  '-0',
  '1e3',
  '1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '0b11',
  '9007199254740993',
  '123456789012345678901234567890',
  '1_000',
  '١٠٠',
];
/** Amounts a currency cannot take: negative, zero, too many digits, not decimal, too large. */
export const AMOUNTS = [
  '-1.00',
  '-0.01',
  '0',
  '0.00',
  '-0',
  '0.001',
  '1.001',
  '1.005',
  '0.000000000000000001',
  '1.5',
  '1',
  '1,00',
  '1.00.00',
  ' 1.00',
  '1 000.00',
  '1e2',
  '1E-2',
  '+1.00',
  '.5',
  '5.',
  '0x1F',
  '00001.00',
  '1000000000000000000.00',
  '99999999999999999999.99',
  '10000000000000.01',
  '100000000000000000',
  'NaN',
  'Infinity',
  '１.００',
  '١.٠٠',
  '1.00 RUB',
  '₽1',
  '',
  ' ',
  '-',
  '.',
];
const CURRENCIES = ['RUB', 'USD', 'EUR', 'IDR', 'JPY', 'rub', 'RUR', '', 'XXX', 'BTC'];
const WRONG_TYPES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  2 ** 64,
  true,
  false,
  [],
  ['1234'],
  {},
  { $gt: '' },
  { toString: 'x' },
  [null],
];
const MALFORMED_JSON = [
  '{',
  '}',
  '{"a":',
  '{"a" 1}',
  "{'a': 1}",
  '{"a":1,}',
  '[1,2',
  'undefined',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":01}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '\u0000',
  '\uFEFF{}',
  '{"a":"b"}{"c":"d"}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  'null',
  'true',
  '123',
  '"string"',
  '[]',
  '',
  ' ',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/json; charset=latin1',
  'application/jsonx',
  'image/png',
  'application/octet-stream',
  '',
  'json',
];
/** 36 characters of hex digits and dashes that are not a UUID: they once reached a ::uuid cast. */
const MALFORMED_IDS = [
  '-'.repeat(36),
  'f'.repeat(36),
  '00000000-0000-8000-8000-0000-0000000',
  '0000000000000-0000-0000-000000000000',
];
const ID_PARAMS = [
  ...MALFORMED_IDS,
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'not-an-id',
  '1',
  '-1',
  "1' OR '1'='1",
  '%27%20OR%201%3D1',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%E0%A4%A',
  '%',
  'x'.repeat(201),
  'a'.repeat(36),
  '12345678-1234-1234-1234-1234567890123',
  '%D0%98%D0%B2%D0%B0%D0%BD',
];
const IDEMPOTENCY_KEYS = [
  '',
  'short',
  'x'.repeat(101),
  'has space here',
  'key/with/slash',
  "k'; DROP--",
  '\t\t\t\t\t\t\t\t',
];
const ACCEPT_LANGUAGES = ['', 'ru', 'ru-RU,ru;q=0.9', 'xx', '*', 'ru;q=abc', ';;;,,,', 'de-DE'];

/** A hostile string of some kind, sized from empty to larger than the body limit. */
function hostileString(random: () => number): string {
  const kind = Math.floor(random() * 9);
  switch (kind) {
    case 0:
      return pick(random, SQL_INJECTIONS);
    case 1:
      return pick(random, HTML_INJECTIONS);
    case 2:
      return pick(random, UNICODE_STRINGS);
    case 3:
      return pick(random, NUMERIC_STRINGS);
    case 4:
      return 'x'.repeat(pick(random, [33, 101, 257, 2001, 10_000]));
    case 5:
      return pick(random, ['Иван', '😀', 'a']).repeat(pick(random, [500, 5000, 40_000]));
    case 6:
      // Larger than the body limit (64 KiB): refused before anything reads it.
      return 'я'.repeat(40_000);
    case 7:
      return pick(random, MALFORMED_IDS);
    default:
      return randomBytes(Math.floor(random() * 64)).toString('latin1');
  }
}

// ---------- the contract's fields ----------

interface ZodLike {
  _zod: { def: { type: string; innerType?: ZodLike; shape?: Record<string, ZodLike> } };
  shape?: Record<string, ZodLike>;
}

function unwrap(schema: ZodLike): { type: string; optional: boolean } {
  let current = schema;
  let optional = false;
  while (current._zod.def.type === 'optional' || current._zod.def.type === 'nullable') {
    if (current._zod.def.type === 'optional') optional = true;
    current = current._zod.def.innerType!;
  }
  return { type: current._zod.def.type, optional };
}

export interface Field {
  name: string;
  type: string;
  optional: boolean;
}

/** The fields of an object schema of the contract, with their zod types. */
export function fieldsOf(schema: unknown): Field[] {
  const shape = (schema as ZodLike | undefined)?.shape;
  if (!shape) return [];
  return Object.entries(shape).map(([name, field]) => ({ name, ...unwrap(field) }));
}

/** A valid value of a field, from the world the fuzzer runs in. */
function validValue(name: CallName, field: string, world: World): unknown {
  switch (field) {
    case 'first_name':
    case 'last_name':
      return 'Иван';
    case 'email':
      return 'ivan@example.com';
    case 'phone':
      if (name === 'register') return world.freshPhone();
      if (name === 'sendCode' || name === 'login' || name === 'registerConfirm') return world.ownPhone;
      return world.recipientPhone;
    case 'confirm_code':
      return '0000';
    case 'pin_code':
    case 'pin':
    case 'old_pin':
    case 'new_pin':
      return world.pin;
    case 'currency_code':
      return 'RUB';
    case 'amount':
      return '1.00';
    case 'pan':
      return '4111 1111 1111 1111';
    case 'qr':
      return walletQrText(world.recipientPhone, '1.00');
    case 'ids':
      return [world.notificationId];
    case 'ordering':
      return '-created_at';
    case 'account':
      return world.accountId;
    case 'date_from':
      return '2026-01-01';
    case 'date_to':
      return '2026-12-31';
    case 'cursor':
      return 'abc';
    case 'limit':
      return '10';
    case 'order':
      return world.orderId;
    case 'event':
      return name === 'payoutsWebhook'
        ? 'payout.canceled'
        : name === 'kycWebhook'
          ? 'verification.rejected'
          : 'payment.canceled';
    case 'payment_id':
    case 'payout_id':
      return `fuzz_${randomBytes(4).toString('hex')}`;
    case 'reference':
      return world.withdrawalId;
    case 'verification_id':
      return '00000000-0000-0000-0000-000000000000';
    case 'reason':
      return null;
    case 'sequence':
      return 1;
    case 'occurred_at':
      return world.now().toISOString();
    case 'application_id':
      return world.accountId;
    case 'document_type':
      return 'snils';
    case 'document_number':
      return '112-233-445 95';
    case 'full_name':
      return 'Петров Иван Сергеевич';
    case 'birth_date':
      return '1990-04-12';
    default:
      return 'x';
  }
}

function validId(name: CallName, world: World): string {
  if (name === 'account') return world.accountId;
  if (name === 'withdrawalReceipt') return world.withdrawalId;
  if (name === 'endSession') return world.otherSessionId;
  return '00000000-0000-0000-0000-000000000000';
}

export function validBody(name: CallName, world: World): Record<string, unknown> | undefined {
  const call = calls[name] as CallDef;
  if (!call.body) return undefined;
  const body: Record<string, unknown> = {};
  for (const field of fieldsOf(call.body)) {
    if (field.optional && name !== 'qrPayment') continue;
    body[field.name] = validValue(name, field.name, world);
  }
  if (name === 'qrPayment') delete body.amount;
  return body;
}

function validQuery(name: CallName, world: World): Record<string, string> | undefined {
  const call = calls[name] as CallDef;
  if (!call.query) return undefined;
  const query: Record<string, string> = {};
  for (const field of fieldsOf(call.query)) {
    // Optional query fields are left out of the valid request; mutations add them.
    if (field.optional) continue;
    query[field.name] = String(validValue(name, field.name, world));
  }
  return query;
}

// ---------- mutations ----------

/** The categories of breakage, each applicable to some calls. */
export const CATEGORIES = [
  'missing-field',
  'extra-field',
  'wrong-type',
  'hostile-string',
  'number-as-string',
  'string-as-number',
  'amount',
  'currency',
  'malformed-json',
  'content-type',
  'body-not-object',
  'huge-body',
  'deep-nesting',
  'no-body',
  'token',
  'signature',
  'idempotency-key',
  'query',
  'path-param',
  'method',
  'language',
  // The outside test's classes: phones answered alike (sign-in enumeration), dates outside the
  // sane range, forged or old-style cursors, client-written X-Forwarded-For.
  'known-phone',
  'date-range',
  'cursor',
  'forwarded-for',
  // The third round's: a control character inside any text field, for every call.
  'control-char',
  // The fourth round's: a direction control inside any free text (names, comments, messages).
  'direction-char',
] as const;

/** Direction controls a free text may hide (issue 53): every one is a 400 in a plain-text field. */
const DIRECTION_CHARACTERS = ['\u202e', '\u202d', '\u202a', '\u2066', '\u2067', '\u2069', '\u200f', '\u061c'];

/** A body's free-text fields: those whose schema takes a word and refuses it with a direction override. */
export function freeTextFields(schema: unknown): string[] {
  const shape = (schema as ZodLike | undefined)?.shape;
  if (!shape) return [];
  return Object.entries(shape)
    .filter(([, field]) => {
      const schema = field as unknown as { safeParse: (v: unknown) => { success: boolean } };
      return schema.safeParse('текст').success && !schema.safeParse('те\u202eкст').success;
    })
    .map(([name]) => name);
}

/**
 * Control characters a text may hide (docs/decisions/security-rules.md#hardening-third-round): every one is a
 * 400.
 */
const CONTROL_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\t',
  '\n',
  '\r',
  '\u001b[2J',
  '\u007f',
  '\u0085',
  '\u009b',
];

const SIGN_IN_CALLS: readonly string[] = ['register', 'registerConfirm', 'sendCode', 'login'];
const OUT_OF_RANGE_DATES = [
  '0000-01-01',
  '9999-12-31',
  '1969-12-31',
  '2200-01-01',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
];
const FORWARDED = [
  '1.1.1.1',
  '1.1.1.1, 2.2.2.2, 3.3.3.3',
  'not-an-address',
  '::ffff:1.1.1.1',
  '2001:db8::1, 999.999.999.999',
  ', , ,',
  'x'.repeat(5000),
  '127.0.0.1',
];
export const JSON_TYPE = /^application\/json\s*(;|$)/i;
export type Category = (typeof CATEGORIES)[number];

function applies(category: Category, name: CallName): boolean {
  const call = calls[name] as CallDef;
  const fields = fieldsOf(call.body);
  switch (category) {
    case 'missing-field':
      return fields.some((f) => !f.optional);
    case 'wrong-type':
    case 'hostile-string':
    case 'number-as-string':
      return fields.length > 0 || !!call.query;
    case 'string-as-number':
      return fields.some((f) => f.type === 'number');
    case 'amount':
      return fields.some((f) => f.name === 'amount');
    case 'currency':
      return (
        fields.some((f) => f.name === 'currency_code') ||
        fieldsOf(call.query).some((f) => f.name === 'currency_code')
      );
    case 'malformed-json':
    case 'content-type':
    case 'body-not-object':
    case 'huge-body':
    case 'deep-nesting':
    case 'no-body':
    case 'extra-field':
      return call.method === 'POST' || call.method === 'DELETE';
    case 'token':
      return call.access === 'token';
    case 'signature':
      return call.access === 'provider';
    case 'idempotency-key':
      return !!call.idempotent;
    case 'query':
      return !!call.query;
    case 'path-param':
      return !!call.params;
    case 'method':
    case 'language':
      return true;
    case 'known-phone':
      return SIGN_IN_CALLS.includes(name);
    case 'date-range':
      return (
        fieldsOf(call.query).some((f) => f.name === 'date_from') ||
        fields.some((f) => f.name === 'first_run_at')
      );
    case 'control-char':
      return (
        call.access !== 'provider' && [...fields, ...fieldsOf(call.query)].some((f) => f.type === 'string')
      );
    case 'cursor':
      return fieldsOf(call.query).some((f) => f.name === 'cursor');
    case 'direction-char':
      return call.access !== 'provider' && freeTextFields(call.body).length > 0;
    case 'forwarded-for':
      return call.access === 'public';
  }
}

/** Every (call, category) pair that makes sense: the first pass covers each at least once. */
export function plan(): Array<[CallName, Category]> {
  const pairs: Array<[CallName, Category]> = [];
  for (const name of Object.keys(calls) as CallName[]) {
    for (const category of CATEGORIES) if (applies(category, name)) pairs.push([name, category]);
  }
  return pairs;
}

function pathOf(name: CallName, world: World, id?: string): string {
  return (calls[name] as CallDef).path.replace(':id', id ?? validId(name, world));
}

/** Percent-encodes a query value; a lone surrogate becomes the invalid UTF-8 it would be on the wire. */
function encodeQuery(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}

function withQuery(path: string, query: Record<string, string> | undefined, raw?: string): string {
  const text = raw ?? (query ? new URLSearchParams(query).toString() : '');
  return text ? `${path}?${text}` : path;
}

/** One broken request for a call and a category. */
export function makeCase(name: CallName, category: Category, random: () => number, world: World): FuzzCase {
  const call = calls[name] as CallDef;
  const fields = fieldsOf(call.body);
  const queryFields = fieldsOf(call.query);
  let body: unknown = validBody(name, world);
  let query = validQuery(name, world);
  let rawQuery: string | undefined;
  let path = pathOf(name, world);
  let method: string = call.method;
  let payload: string | undefined;
  let contentType: string | undefined = body !== undefined ? 'application/json' : undefined;
  // A merchant API call carries the world's merchant's key ('valid' is its HTTP Basic there).
  let auth: AuthKind = call.access === 'token' || call.access === 'merchant' ? 'valid' : 'none';
  let signature: SignatureKind = call.access === 'provider' ? 'valid' : 'none';
  const headers: Record<string, string> = {};
  let twin: FuzzCase['twin'];
  let expectCode: string | undefined;
  let remoteAddress: string | undefined;
  if (call.idempotent && random() < 0.5)
    headers['idempotency-key'] = `fuzz-${randomBytes(8).toString('hex')}`;

  const b = () => body as Record<string, unknown>;
  // Fields a mutation may target: the body's, else the query's.
  const target = (): { where: 'body' | 'query'; field: Field } | null => {
    if (fields.length && (!queryFields.length || random() < 0.7))
      return { where: 'body', field: pick(random, fields) };
    if (queryFields.length) return { where: 'query', field: pick(random, queryFields) };
    return null;
  };
  const set = (where: 'body' | 'query', field: string, value: unknown) => {
    if (where === 'body') b()[field] = value;
    else {
      query ??= {};
      query[field] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  };

  switch (category) {
    case 'missing-field': {
      const required = fields.filter((f) => !f.optional);
      delete b()[pick(random, required).name];
      if (random() < 0.2) body = {};
      break;
    }
    case 'extra-field': {
      if (body === undefined) {
        body = {};
        contentType = 'application/json';
      }
      const extra = pick(random, [
        'is_admin',
        'user_id',
        'balance',
        'status',
        'id',
        'role',
        '__proto__',
        'constructor',
        'прочее',
        '',
      ]);
      b()[extra] = pick(random, [true, 'x', 1, { admin: true }, world.accountId]);
      if (extra === '__proto__')
        payload = JSON.stringify(body).replace('}', ',"__proto__":{"admin":true}}').replace('{,', '{');
      break;
    }
    case 'wrong-type': {
      const t = target();
      if (t) set(t.where, t.field.name, pick(random, WRONG_TYPES));
      break;
    }
    case 'hostile-string': {
      const t = target();
      if (t) set(t.where, t.field.name, hostileString(random));
      break;
    }
    case 'number-as-string': {
      const t = target();
      if (t) set(t.where, t.field.name, pick(random, NUMERIC_STRINGS));
      break;
    }
    case 'string-as-number': {
      const numeric = fields.filter((f) => f.type === 'number');
      set('body', pick(random, numeric).name, pick(random, ['1', '-1', '1.5', 'one', '', '1e3']));
      break;
    }
    case 'amount': {
      const amount = random() < 0.85 ? pick(random, AMOUNTS) : pick(random, [1, 1.5, -1, 0, 0.1 + 0.2, 1e21]);
      b().amount = amount;
      if (random() < 0.4) b().currency_code = pick(random, ['RUB', 'USD', 'EUR', 'IDR']);
      if (name === 'qrPayment') b().qr = walletQrText(world.recipientPhone, null);
      break;
    }
    case 'currency': {
      const value = pick(random, CURRENCIES);
      if (fields.some((f) => f.name === 'currency_code')) b().currency_code = value;
      else set('query', 'currency_code', value);
      break;
    }
    case 'malformed-json':
      payload = pick(random, MALFORMED_JSON);
      contentType = 'application/json';
      break;
    case 'content-type':
      contentType = pick(random, CONTENT_TYPES);
      // The contract's calls read JSON only: anything else is refused before it is read.
      if (call.body && !JSON_TYPE.test(contentType)) expectCode = 'UNSUPPORTED_MEDIA_TYPE';
      body ??= { a: 1 };
      if (contentType.startsWith('application/x-www-form-urlencoded'))
        payload = new URLSearchParams(Object.entries(b()).map(([k, v]) => [k, String(v)])).toString();
      break;
    case 'body-not-object':
      body = pick(random, [[], [body], 'string', 123, null, true, [1, 2, 3]]);
      contentType = 'application/json';
      break;
    case 'huge-body':
      body = { ...(body as object), padding: 'x'.repeat(pick(random, [70_000, 200_000, 1_100_000])) };
      contentType = 'application/json';
      break;
    case 'deep-nesting': {
      const depth = pick(random, [100, 1000, 5000, 20_000]);
      const inner = JSON.stringify(body ?? {}).replace(/^\{/, '');
      payload = `{"nested":${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}${inner === '}' ? '}' : `,${inner}`}`;
      contentType = 'application/json';
      break;
    }
    case 'no-body':
      body = undefined;
      if (random() < 0.5) contentType = 'application/json';
      break;
    case 'token':
      auth = pick(random, ['none', 'forged', 'expired', 'revoked', 'malformed', 'other-scheme'] as const);
      break;
    case 'signature':
      signature = pick(random, ['none', 'forged', 'stale', 'malformed'] as const);
      if (random() < 0.5) {
        const t = target();
        if (t) set(t.where, t.field.name, hostileString(random));
      }
      break;
    case 'idempotency-key':
      headers['idempotency-key'] = pick(random, IDEMPOTENCY_KEYS);
      break;
    case 'query':
      rawQuery = pick(random, [
        'limit=1&limit=2',
        'unknown=1',
        '%E0%A4%A',
        '%00=%00',
        'a[b]=1',
        '__proto__[admin]=1',
        `${queryFields[0]?.name ?? 'x'}=${encodeQuery(hostileString(random).slice(0, 3000))}`,
        `${queryFields[0]?.name ?? 'x'}[]=1`,
        '&&&===',
        'limit=0',
        'limit=101',
        'limit=-1',
        'date_from=2026-13-45',
        'date_from=2026-01-01T25:00:00Z',
        'ordering=amount',
        'cursor=../../x',
        'account=',
      ]);
      break;
    case 'path-param':
      path = pathOf(name, world, pick(random, ID_PARAMS));
      break;
    case 'method':
      method = pick(
        random,
        ['PUT', 'PATCH', 'DELETE', 'GET', 'POST', 'OPTIONS'].filter((m) => m !== call.method),
      );
      break;
    case 'known-phone': {
      // The same request for a phone with a wallet and one without, in lockstep.
      b().phone = world.ownPhone;
      if ('confirm_code' in b()) b().confirm_code = String(Math.floor(random() * 10_000)).padStart(4, '0');
      if ('first_name' in b()) b().first_name = pick(random, ['Иван', 'Анна', 'Mallory']);
      const other = JSON.stringify({ ...b(), phone: world.unknownPhone });
      twin = { url: withQuery(path, query), payload: other, phones: [world.ownPhone, world.unknownPhone] };
      // A pair of its own address: the per-address SMS cap must not fall between the two requests.
      remoteAddress = `10.77.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`;
      break;
    }
    case 'date-range':
      if (fields.some((f) => f.name === 'first_run_at'))
        set('body', random() < 0.5 ? 'first_run_at' : 'ends_at', pick(random, OUT_OF_RANGE_DATES));
      else set('query', random() < 0.5 ? 'date_from' : 'date_to', pick(random, OUT_OF_RANGE_DATES));
      expectCode = 'FIELD_INVALID';
      break;
    case 'control-char': {
      // A call confirmed with the PIN gets it, so that the control character is the one thing wrong.
      if (body !== undefined && fields.some((f) => f.name === 'pin') && !('pin' in b())) b().pin = world.pin;
      // Inside the text, where no trimming removes it.
      const texts = [
        ...fields.filter((f) => f.type === 'string').map((f) => ['body', f.name] as const),
        ...queryFields.filter((f) => f.type === 'string').map((f) => ['query', f.name] as const),
      ];
      const [where, field] = pick(random, texts);
      const now = where === 'body' ? b()[field] : query?.[field];
      const text = typeof now === 'string' && now.length > 1 ? now : 'текст';
      const at = 1 + Math.floor(random() * (text.length - 1));
      set(where, field, `${text.slice(0, at)}${pick(random, CONTROL_CHARACTERS)}${text.slice(at)}`);
      expectCode = 'FIELD_INVALID';
      break;
    }
    case 'direction-char': {
      if (body !== undefined && fields.some((f) => f.name === 'pin') && !('pin' in b())) b().pin = world.pin;
      const field = pick(random, freeTextFields(call.body));
      const now = b()[field];
      const text = typeof now === 'string' && now.length > 1 ? now : 'текст';
      const at = 1 + Math.floor(random() * (text.length - 1));
      b()[field] = `${text.slice(0, at)}${pick(random, DIRECTION_CHARACTERS)}${text.slice(at)}`;
      expectCode = 'FIELD_INVALID';
      break;
    }
    case 'cursor': {
      const iso = pick(random, [
        '2026-01-01T00:00:00.000Z',
        '0000-01-01T00:00:00.000Z',
        '9999-12-31T00:00:00.000Z',
      ]);
      const id = pick(random, [
        '00000000-0000-8000-8000-000000000001',
        world.notificationId,
        world.accountId,
      ]);
      set(
        'query',
        'cursor',
        pick(random, [
          // The old, readable layout: a time and a sequential entry id.
          Buffer.from(`${iso}|${id}`).toString('base64url'),
          randomBytes(40).toString('base64url'),
          randomBytes(64).toString('base64url').slice(0, 150),
          'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        ]),
      );
      expectCode = 'FIELD_INVALID';
      break;
    }
    case 'forwarded-for':
      // A phone of its own: the known phone's state belongs to the 'known-phone' pairs.
      if (body !== undefined && 'phone' in b()) b().phone = world.freshPhone();
      headers['x-forwarded-for'] = pick(random, FORWARDED);
      if (random() < 0.5) headers.forwarded = pick(random, ['for=1.1.1.1', 'for="[2001:db8::1]"', 'garbage']);
      break;
    case 'language':
      headers['accept-language'] = pick(random, ACCEPT_LANGUAGES);
      // With any language other than English the answer must be Russian; the request is also broken.
      if (fields.length) b()[pick(random, fields).name] = pick(random, WRONG_TYPES);
      else auth = call.access === 'token' ? 'forged' : auth;
      break;
  }

  // The phone with a wallet moves only in its 'known-phone' pairs (in lockstep with the phone
  // without one); any other sign-in request that reaches a code check speaks for a number of its own.
  if (
    category !== 'known-phone' &&
    SIGN_IN_CALLS.includes(name) &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    (body as Record<string, unknown>).phone === world.ownPhone
  )
    (body as Record<string, unknown>).phone = world.freshPhone();
  if (payload === undefined && body !== undefined && method !== 'GET') payload = JSON.stringify(body);
  if (contentType !== undefined && payload !== undefined) headers['content-type'] = contentType;
  return {
    call: name,
    category,
    method,
    url: withQuery(path, query, rawQuery),
    headers,
    payload,
    auth,
    signature,
    ...(twin ? { twin } : {}),
    ...(expectCode ? { expectCode } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  };
}

/** Requests to paths that are not in the call table at all. */
export function strayCase(random: () => number): FuzzCase {
  const url = pick(random, [
    '/v2/wallet/admin',
    '/v2/wallet/account/../../etc/passwd',
    '/v2/wallet/transfer/',
    '/v2/wallet/%2e%2e/%2e%2e',
    '/v2/wallet/account/%',
    '/v2/wallet/account/%E0%A4%A',
    `/v2/wallet/${'a'.repeat(5000)}`,
    '/v2/wallet/webhooks/unknown',
    '/v2/wallet/auth/login;jsessionid=1',
    '/v2/wallet/top-up/status?order[$ne]=1',
    '/v2//wallet',
    '/v2/wallet/withdrawal/%00',
    // The sandbox outbox answers only for the phone asked, never for all.
    '/sandbox/sms',
    '/sandbox/sms?phone=',
    '/sandbox/sms?phone=%2B7%25',
    "/sandbox/sms?phone=%2B79990000000'%20OR%201=1--",
  ]);
  return {
    call: null,
    category: 'stray-path',
    method: pick(random, ['GET', 'POST', 'DELETE']),
    url,
    headers: {},
    auth: 'valid',
    signature: 'none',
  };
}
