/**
 * The sandbox's Faster Payments System (docs/decisions/sbp.md#the-sandbox): a short participants list in
 * which three test banks decide the outcome, and a recipient's masked name made up from the phone (the
 * same each time), so a person sees a name before the PIN as with a real bank.
 */
import { createHash } from 'node:crypto';
import { type PayoutDestination, REASON_RECIPIENT_CHECK_FAILED } from './payouts-provider.ts';

export const SANDBOX_SBP_PAYS = '100000000901';
export const SANDBOX_SBP_DECLINES = '100000000902';
export const SANDBOX_SBP_CHECK_FAILS = '100000000903';
export const SANDBOX_SBP_DECLINE_REASON = 'Банк получателя отклонил перевод (тестовый банк 100000000902)';

export const SANDBOX_SBP_BANKS: ReadonlyArray<{ id: string; name: string }> = [
  { id: SANDBOX_SBP_PAYS, name: 'Тестовый банк' },
  { id: SANDBOX_SBP_DECLINES, name: 'Тестовый банк (отказ)' },
  { id: SANDBOX_SBP_CHECK_FAILS, name: 'Тестовый банк (проверка получателя)' },
  { id: '100000000111', name: 'Сбербанк' },
  { id: '100000000004', name: 'Т-Банк' },
  { id: '100000000005', name: 'Банк ВТБ' },
  { id: '100000000008', name: 'Альфа-Банк' },
  { id: '100000000001', name: 'Газпромбанк' },
  { id: '100000000007', name: 'Райффайзенбанк' },
];

const FIRST_NAMES = ['Иван', 'Мария', 'Алексей', 'Ольга', 'Дмитрий', 'Анна', 'Сергей', 'Елена'];
const INITIALS = ['А', 'Б', 'В', 'Г', 'Д', 'Е', 'К', 'Л', 'М', 'Н', 'П', 'С', 'Т'];

/** 'Иван П.': the same for a phone every time. */
export function sandboxRecipientName(phone: string): string {
  const digest = createHash('sha256').update(`sbp-recipient:${phone}`).digest();
  return `${FIRST_NAMES[digest[0]! % FIRST_NAMES.length]} ${INITIALS[digest[1]! % INITIALS.length]}.`;
}

export function sandboxSbpOutcome(destination: Extract<PayoutDestination, { type: 'sbp' }>): {
  outcome: 'succeed' | 'fail';
  reason: string | null;
} {
  if (destination.bankId === SANDBOX_SBP_DECLINES)
    return { outcome: 'fail', reason: SANDBOX_SBP_DECLINE_REASON };
  if (destination.bankId === SANDBOX_SBP_CHECK_FAILS && destination.recipient)
    return { outcome: 'fail', reason: REASON_RECIPIENT_CHECK_FAILED };
  return { outcome: 'succeed', reason: null };
}
