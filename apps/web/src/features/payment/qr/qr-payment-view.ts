/**
 * What the payment page shows for a QR content text (docs/decisions/qr-codes.md#qr-codes-we-read), from the
 * contract's pure parser: our own receive QR and GOST codes are payable; an SBP link is shown but needs a
 * member bank; a broken code says what is wrong; anything else is the 'temporarily unavailable' text.
 */
import {
  type CurrencyCode,
  formatAmount,
  type ParseAmountError,
  parseAmount,
} from '@e-wallet/contract/money';
import { parseQr, type QrInvalidReason } from '@e-wallet/contract/qr';

export type QrPaymentView =
  | { kind: 'wallet'; qr: string; phone: string; amount: string | null; currency: string }
  | {
      kind: 'gost';
      qr: string;
      payee: string;
      bank: string;
      bic: string;
      account: string;
      purpose: string | null;
      amount: string | null;
      currency: 'RUB';
    }
  | { kind: 'sbp'; qr: string; bank: string | null; amount: string | null; currency: string }
  | { kind: 'invalid'; qr: string; reason: QrInvalidReason; field: string }
  | { kind: 'merchant'; qr: string; path: string }
  | { kind: 'unsupported'; qr: string };

/** Payable kinds: a send button and, when the code names no amount, an amount field. */
export function isPayable(view: QrPaymentView): view is Extract<QrPaymentView, { kind: 'wallet' | 'gost' }> {
  return view.kind === 'wallet' || view.kind === 'gost';
}

export function qrPaymentView(text: string): QrPaymentView {
  const parsed = parseQr(text);
  switch (parsed.kind) {
    case 'wallet':
      return {
        kind: 'wallet',
        qr: text,
        phone: parsed.phone,
        amount: parsed.amount,
        currency: parsed.currency,
      };
    case 'gost':
      return {
        kind: 'gost',
        qr: text,
        payee: parsed.name,
        bank: parsed.bankName,
        bic: parsed.bic,
        account: parsed.personalAcc,
        purpose: parsed.purpose,
        // Sum is in kopecks: shown and compared as a decimal rouble amount, never a float.
        amount: parsed.sum === null ? null : formatAmount(parsed.sum, 'RUB'),
        currency: 'RUB',
      };
    case 'sbp':
      return {
        kind: 'sbp',
        qr: text,
        bank: parsed.bank,
        amount: parsed.sum === null ? null : formatAmount(parsed.sum, 'RUB'),
        currency: parsed.currency ?? 'RUB',
      };
    case 'invalid':
      return { kind: 'invalid', qr: text, reason: parsed.reason, field: parsed.field ?? '' };
    case 'merchant':
      return { kind: 'merchant', qr: text, path: parsed.path };
    case 'unsupported':
      return { kind: 'unsupported', qr: parsed.text };
  }
}

/**
 * The amount a person typed for a code without one, as the wire's decimal string ("150.50"),
 * or the reason it is not an amount.
 */
export function typedAmount(
  input: string,
  currency: CurrencyCode,
): { ok: true; amount: string } | { ok: false; error: ParseAmountError } {
  const parsed = parseAmount(input, currency);
  return parsed.ok ? { ok: true, amount: formatAmount(parsed.minor, currency) } : parsed;
}
