import { describe, expect, it } from 'vitest';
import { RESEND_AFTER_SECONDS, resendWait } from './resend.ts';

describe('resendWait', () => {
  it('takes the answer’s resend_after, else the full minute', () => {
    expect(resendWait({ resend_after: 42 })).toBe(42);
    expect(resendWait({})).toBe(RESEND_AFTER_SECONDS);
    expect(resendWait(null)).toBe(60);
  });

  it('counts down what a too-early ask was told, and nothing after another refusal', () => {
    const tooSoon = {
      status: 'error' as const,
      code: 'CODE_RESEND_TOO_SOON',
      message: 'Новый код можно запросить через 37 с',
    };
    expect(resendWait(tooSoon)).toBe(37);
    expect(resendWait({ status: 'error', code: 'SMS_LIMIT_PHONE', message: 'Слишком много кодов' })).toBe(0);
  });
});
