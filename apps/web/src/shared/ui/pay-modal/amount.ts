/**
 * The amount a person types (docs/decisions/placeholders-and-defects.md#placeholders-become-real-features: a
 * real check instead of the spec's pattern): positive, at most the currency's minor digits, read without a
 * float by the contract's parser.
 * The server checks the same again, with the limits of the person's identification level.
 */
import {
  type CurrencyCode,
  formatAmount,
  type ParseAmountError,
  parseAmount,
} from '@e-wallet/contract/money';

export type AmountProblem = 'empty' | ParseAmountError;

export type AmountCheck = { ok: true; amount: string; minor: bigint } | { ok: false; problem: AmountProblem };

/**
 * Keeps what an amount can be made of while typing: digits and one decimal mark, a point or a comma;
 * in English a comma groups thousands ("1,500.00"), so it is dropped, never read as the mark.
 */
export function cleanAmountInput(text: string, language: 'ru' | 'en' = 'ru'): string {
  const kept = text.replace(language === 'en' ? /[^\d.]/g : /[^\d.,]/g, '');
  const point = kept.search(/[.,]/);
  if (point === -1) return kept;
  return kept.slice(0, point + 1) + kept.slice(point + 1).replace(/[.,]/g, '');
}

/** The wire amount ("1500.00") of what was typed, or why it cannot be sent. */
export function checkAmount(text: string, currency: CurrencyCode): AmountCheck {
  if (text.trim() === '') return { ok: false, problem: 'empty' };
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) return { ok: false, problem: parsed.error };
  return { ok: true, amount: formatAmount(parsed.minor, currency), minor: parsed.minor };
}
