/**
 * What an SMS code confirms, said in the code's own text as Russian banks do ('Код 1234: перевод
 * 12 000 ₽ Emily C.'): the action, and for money the amount and the masked payee, in the person's
 * language. One SMS segment where the words allow: the warning is dropped before the facts are.
 */
import type { CurrencyCode, Language } from '@e-wallet/contract';
import { nameIn } from '@e-wallet/contract/names';
import { shortMoney } from '../../policy/amounts.ts';
import { smsSegments } from '../../providers/sms/segments.ts';

/** A step with no money in it, and what its code confirms. */
export type CodeAction = 'sign_in' | 'register' | 'unfreeze' | 'close_wallet';

/** A held operation confirmed with a code: its kind, amount and the payee as the person saw them. */
export interface CodeForMoney {
  kind: 'transfer' | 'payment' | 'withdrawal' | 'sbp';
  amount: bigint;
  currency: CurrencyCode;
  payee: string;
}

export type CodeConfirms = { action: CodeAction } | { money: CodeForMoney };

const ACTIONS: Record<CodeAction, Record<Language, string>> = {
  sign_in: { ru: 'вход в E-Wallet', en: 'sign-in to E-Wallet' },
  register: { ru: 'регистрация в E-Wallet', en: 'E-Wallet sign-up' },
  unfreeze: { ru: 'разблокировка кошелька E-Wallet', en: 'unfreezing your E-Wallet' },
  close_wallet: { ru: 'закрытие кошелька E-Wallet', en: 'closing your E-Wallet' },
};

const MONEY: Record<CodeForMoney['kind'], Record<Language, string>> = {
  transfer: { ru: 'перевод {amount} {payee}', en: 'transfer of {amount} to {payee}' },
  payment: { ru: 'оплата {amount} {payee}', en: 'payment of {amount} to {payee}' },
  withdrawal: { ru: 'вывод {amount} на {payee}', en: 'withdrawal of {amount} to {payee}' },
  sbp: { ru: 'перевод по СБП {amount} {payee}', en: 'SBP transfer of {amount} to {payee}' },
};

const WARNING: Record<Language, string> = { ru: 'Никому не сообщайте.', en: 'Never share it.' };

function confirmsText(confirms: CodeConfirms, language: Language): string {
  if ('action' in confirms) return ACTIONS[confirms.action][language];
  const { kind, amount, currency, payee } = confirms.money;
  return MONEY[kind][language]
    .replace('{amount}', shortMoney(amount, currency, language))
    .replace('{payee}', nameIn(payee, language));
}

/** The SMS carrying a code: 'Код 1234: <what it confirms>. Никому не сообщайте.' */
export function codeText(code: string, confirms: CodeConfirms, language: Language): string {
  const head = `${language === 'ru' ? 'Код' : 'Code'} ${code}: ${confirmsText(confirms, language)}`;
  // A masked name ends with its own point ('Иван П.').
  const facts = head.endsWith('.') ? head : `${head}.`;
  const full = `${facts} ${WARNING[language]}`;
  // A long payee's name may not leave room for the warning: the facts stay, in one segment.
  return smsSegments(full) === 1 || smsSegments(facts) > 1 ? full : facts;
}
