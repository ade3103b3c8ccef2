/** Pure parts of identification: webhook signatures, document checks, and the transition rule. */
import { describe, expect, it } from 'vitest';
import { nextStatus } from '../src/modules/identification/service.ts';
import {
  ageOn,
  checkApplicant,
  isValidInn,
  isValidSnils,
  maskDocumentNumber,
} from '../src/providers/kyc/documents.ts';
import { checkSignature, signPayload } from '../src/providers/signature.ts';

const SECRET = 'unit-test-webhook-secret-01';
const NOW = new Date('2026-05-01T10:00:00Z');

describe('webhook signatures', () => {
  const body = '{"event":"verification.approved","sequence":2}';
  const header = signPayload(SECRET, body, NOW);

  it('signs t=<unix>,v1=<hex of HMAC-SHA-256 over t.body>', () => {
    expect(header).toMatch(/^t=1777629600,v1=[0-9a-f]{64}$/);
    expect(checkSignature(SECRET, body, header, NOW)).toBeNull();
  });

  it('refuses a missing header or body, garbage, another secret, a changed body', () => {
    expect(checkSignature(SECRET, body, undefined, NOW)).toBe('missing');
    expect(checkSignature(SECRET, undefined, header, NOW)).toBe('missing');
    expect(checkSignature(SECRET, body, ['a', 'b'], NOW)).toBe('missing');
    expect(checkSignature(SECRET, body, 'v1=abc', NOW)).toBe('malformed');
    expect(checkSignature(SECRET, body, 't=1777629600', NOW)).toBe('malformed');
    expect(checkSignature(SECRET, body, `t=x,${header.split(',')[1]}`, NOW)).toBe('malformed');
    expect(checkSignature('another-secret-0000000', body, header, NOW)).toBe('mismatch');
    expect(checkSignature(SECRET, `${body} `, header, NOW)).toBe('mismatch');
    const [t, v1] = header.split(',');
    const flipped = `${v1!.slice(0, -1)}${v1!.endsWith('0') ? '1' : '0'}`;
    expect(checkSignature(SECRET, body, `${t},${flipped}`, NOW)).toBe('mismatch');
  });

  it('accepts five minutes of clock difference either way, and no more', () => {
    expect(checkSignature(SECRET, body, header, new Date(NOW.getTime() + 300_000))).toBeNull();
    expect(checkSignature(SECRET, body, header, new Date(NOW.getTime() - 300_000))).toBeNull();
    expect(checkSignature(SECRET, body, header, new Date(NOW.getTime() + 301_000))).toBe('stale');
    expect(checkSignature(SECRET, body, header, new Date(NOW.getTime() - 301_000))).toBe('stale');
  });

  it('accepts any one matching v1 (secret rotation)', () => {
    const old = signPayload('old-secret-000000000000', body, NOW).split(',')[1];
    expect(checkSignature(SECRET, body, `${header},${old}`, NOW)).toBeNull();
    expect(checkSignature(SECRET, body, `${header.split(',')[0]},${old}`, NOW)).toBe('mismatch');
  });
});

describe('document checks', () => {
  it('checks INN and SNILS check digits', () => {
    expect(isValidInn('500100732259')).toBe(true);
    expect(isValidInn('500100732258')).toBe(false);
    expect(isValidInn('5001007322')).toBe(false);
    expect(isValidSnils('11223344595')).toBe(true);
    expect(isValidSnils('11223344596')).toBe(false);
  });

  it('computes age from a real date only', () => {
    expect(ageOn('2000-05-01', NOW)).toBe(26);
    expect(ageOn('2000-05-02', NOW)).toBe(25);
    expect(ageOn('2001-02-29', NOW)).toBeNull();
    expect(ageOn('01.02.2000', NOW)).toBeNull();
  });

  it('names every wrong field', () => {
    const good = {
      document_type: 'passport',
      document_number: '4510 123456',
      full_name: 'Иванов Иван',
      birth_date: '1990-01-01',
    };
    expect(checkApplicant(good, NOW)).toEqual({
      ok: true,
      applicant: {
        documentType: 'passport',
        documentNumber: '4510123456',
        fullName: 'Иванов Иван',
        birthDate: '1990-01-01',
      },
    });
    expect(checkApplicant({}, NOW)).toEqual({
      ok: false,
      fields: ['document_type', 'document_number', 'full_name', 'birth_date'],
    });
    expect(checkApplicant({ ...good, birth_date: '2013-01-01' }, NOW)).toEqual({
      ok: false,
      fields: ['birth_date'],
    });
    expect(checkApplicant({ ...good, full_name: 'Иван' }, NOW)).toEqual({ ok: false, fields: ['full_name'] });
    expect(checkApplicant({ ...good, document_type: 'inn' }, NOW)).toEqual({
      ok: false,
      fields: ['document_number'],
    });
    expect(maskDocumentNumber('4510123456')).toBe('******3456');
  });
});

describe('verification transitions', () => {
  const at = (status: 'pending' | 'in_review' | 'aborted' | 'complete', seq: number) => ({
    status,
    last_sequence: BigInt(seq),
  });
  it('applies newer updates to active verifications', () => {
    expect(nextStatus(at('pending', 0), { status: 'in_review', sequence: 1 })).toBe('in_review');
    expect(nextStatus(at('pending', 0), { status: 'approved', sequence: 2 })).toBe('complete');
    expect(nextStatus(at('pending', 0), { status: 'rejected', sequence: 1 })).toBe('aborted');
    expect(nextStatus(at('pending', 0), { status: 'canceled', sequence: 1 })).toBe('aborted');
    expect(nextStatus(at('in_review', 1), { status: 'approved', sequence: 2 })).toBe('complete');
    expect(nextStatus(at('in_review', 1), { status: 'rejected', sequence: 2 })).toBe('aborted');
    // A provider may ask for documents again.
    expect(nextStatus(at('in_review', 1), { status: 'pending', sequence: 2 })).toBe('pending');
  });
  it('ignores repeated, older and post-final updates', () => {
    expect(nextStatus(at('in_review', 1), { status: 'in_review', sequence: 1 })).toBeNull();
    expect(nextStatus(at('in_review', 3), { status: 'approved', sequence: 2 })).toBeNull();
    expect(nextStatus(at('pending', 0), { status: 'pending', sequence: 0 })).toBeNull();
    for (const final of ['aborted', 'complete'] as const) {
      for (const status of ['pending', 'in_review', 'approved', 'rejected', 'canceled'] as const) {
        expect(nextStatus(at(final, 1), { status, sequence: 99 })).toBeNull();
      }
    }
  });
});
