/**
 * The texts of notifications in both languages. A notification stores its key and parameters;
 * the text is rendered when it is read, in the reader's language.
 */
import type { Language, NotificationAbout } from '@e-wallet/contract';
import { nameIn } from '@e-wallet/contract/names';

export const NOTIFICATION_MESSAGES = {
  registration: {
    ru: 'Добро пожаловать в E-Wallet, {first_name}! Рублёвый счёт открыт.',
    en: 'Welcome to E-Wallet, {first_name}! Your rouble account is open.',
  },
  money_in_topup: { ru: 'Кошелёк пополнен на {amount}', en: 'Your wallet was topped up with {amount}' },
  money_in_transfer: { ru: 'Вам поступил перевод {amount}', en: 'You received a transfer of {amount}' },
  // The sender's masked name as the recipient lookup shows it ('Анна С.'), after a colon: no case ending to get wrong.
  money_in_transfer_from: {
    ru: 'Вам поступил перевод {amount}. Отправитель: {sender}',
    en: 'You received a transfer of {amount} from {sender}',
  },
  money_in_refund: { ru: 'Возврат {amount}', en: 'Refund of {amount}' },
  money_in: { ru: 'Зачисление {amount}', en: 'Incoming payment of {amount}' },
  money_out_withdrawal: {
    ru: 'Вывод {amount} на карту',
    en: 'Withdrawal of {amount} to a card',
  },
  money_out_transfer: { ru: 'Перевод {amount}', en: 'Transfer of {amount}' },
  money_out_payment: { ru: 'Оплата {amount}', en: 'Payment of {amount}' },
  money_out_sbp: { ru: 'Перевод по СБП: {amount}', en: 'SBP transfer of {amount}' },
  money_out_sbp_fee: {
    ru: 'Перевод по СБП: {amount}, комиссия {fee}',
    en: 'SBP transfer of {amount}, fee {fee}',
  },
  money_out_fee: { ru: 'Комиссия {amount}', en: 'Fee of {amount}' },
  money_out_exchange: { ru: 'Обмен: списано {amount}', en: 'Exchange: {amount} out' },
  money_in_exchange: { ru: 'Обмен: зачислено {amount}', en: 'Exchange: {amount} in' },
  money_out: { ru: 'Списание {amount}', en: 'Outgoing payment of {amount}' },
  money_returned: {
    ru: 'Операция отменена, {amount} возвращены на счёт',
    en: 'The operation was cancelled, {amount} returned to your account',
  },
  wallet_frozen: {
    ru: 'Кошелёк заблокирован: исходящие операции остановлены, другие сеансы завершены',
    en: 'Your wallet is frozen: outgoing operations are stopped, other sessions are ended',
  },
  // An operator's freeze (docs/decisions/back-office.md#the-operators-back-office): sessions stay, the person
  // contacts support.
  wallet_frozen_by_operator: {
    ru: 'Кошелёк заблокирован службой поддержки: исходящие операции остановлены. Обратитесь в поддержку',
    en: 'Your wallet was frozen by our support team: outgoing operations are stopped. Please contact support',
  },
  wallet_unfrozen: { ru: 'Кошелёк разблокирован', en: 'Your wallet is unfrozen' },
  request_incoming: {
    ru: '{name} просит перевести {amount}',
    en: '{name} asks you to pay {amount_en}',
  },
  request_declined: {
    ru: '{name} отклонил(а) ваш запрос на {amount}',
    en: '{name} declined your request for {amount_en}',
  },
  schedule_reminder: {
    ru: 'Завтра регулярный перевод {amount}: {name}',
    en: 'Tomorrow: the scheduled transfer of {amount_en} to {name}',
  },
  schedule_skipped: {
    ru: 'Регулярный перевод {amount} ({name}) не выполнен: {reason}',
    en: 'The scheduled transfer of {amount_en} to {name} was skipped: {reason_en}',
  },
  // A goal's regular deposit (docs/decisions/managing-money.md#managing-money-categories-budgets-goals):
  // {name} is the goal's.
  schedule_goal_reminder: {
    ru: 'Завтра регулярное пополнение копилки «{name}» на {amount}',
    en: 'Tomorrow: the regular deposit of {amount_en} into the goal “{name}”',
  },
  schedule_goal_skipped: {
    ru: 'Регулярное пополнение копилки «{name}» на {amount} не выполнено: {reason}',
    en: 'The regular deposit of {amount_en} into the goal “{name}” was skipped: {reason_en}',
  },
  pin_locked: {
    ru: 'PIN-код введён неверно слишком много раз: операции с деньгами приостановлены на {minutes} мин.',
    en: 'The PIN was entered wrongly too many times: money operations are paused for {minutes} min.',
  },
  // An identification's outcome, told at once (an operator's decision reaches the open app live).
  identification_approved: {
    ru: 'Проверка документов пройдена: новые лимиты уже действуют',
    en: 'Your documents are verified: the new limits apply now',
  },
  identification_rejected: {
    ru: 'Проверка документов не пройдена: {reason}',
    en: 'Your documents were not verified: {reason}',
  },
  // Changes of how money is confirmed or where alerts go (modules/auth/step-up.ts).
  security_passkey_added: {
    ru: 'Добавлен новый ключ доступа. Если это были не вы, заблокируйте кошелёк',
    en: 'A new passkey was added. If it was not you, freeze your wallet',
  },
  security_passkey_removed: {
    ru: 'Ключ доступа удалён. Если это были не вы, заблокируйте кошелёк',
    en: 'A passkey was removed. If it was not you, freeze your wallet',
  },
  security_pin_changed: {
    ru: 'PIN-код изменён. Если это были не вы, заблокируйте кошелёк',
    en: 'Your PIN was changed. If it was not you, freeze your wallet',
  },
  security_push_added: {
    ru: 'Уведомления включены на новом устройстве. Если это были не вы, заблокируйте кошелёк',
    en: 'Notifications were turned on for a new device. If it was not you, freeze your wallet',
  },
  security_alerts_reduced: {
    ru: 'Уведомления о безопасности выключены. Если это были не вы, заблокируйте кошелёк',
    en: 'Security notifications were switched off. If it was not you, freeze your wallet',
  },
  security_settlement_account_changed: {
    ru: 'Расчётный счёт бизнес-аккаунта изменён, выплаты на него начнутся через сутки. Если это были не вы, заблокируйте кошелёк',
    en: 'Your merchant settlement account was changed; payouts to it start in a day. If it was not you, freeze your wallet',
  },
  // A monthly budget's thresholds (db/functions/budgets.sql), told once a month each.
  budget_80: {
    ru: 'Потрачено 80% бюджета «{category}» на месяц',
    en: '80% of the monthly budget “{category_en}” is spent',
  },
  budget_100: {
    ru: 'Бюджет «{category}» на месяц исчерпан',
    en: 'The monthly budget “{category_en}” is used up',
  },
  // An operator's answer in the support chat (docs/decisions/support.md#support-chat).
  support_reply: { ru: 'Поддержка ответила вам', en: 'Support has answered you' },
  new_device: {
    ru: 'Вход в кошелёк с нового устройства: {device}',
    en: 'Sign-in to your wallet from a new device: {device}',
  },
  // Antifraud and the trusted person (docs/decisions/antifraud.md#antifraud-and-the-trusted-person).
  hold_created: {
    ru: 'Операция {amount} ({payee}) приостановлена: {reason}. Подтвердите или отмените её в приложении',
    en: 'The operation of {amount_en} ({payee}) is on hold: {reason_en}. Confirm or cancel it in the app',
  },
  hold_awaiting: {
    ru: 'Операция {amount} ({payee}) ждёт одобрения доверенного лица',
    en: 'The operation of {amount_en} ({payee}) waits for your trusted person’s approval',
  },
  hold_released: {
    ru: 'Операция {amount} ({payee}) подтверждена и выполнена',
    en: 'The operation of {amount_en} ({payee}) is confirmed and done',
  },
  hold_closed: {
    ru: 'Операция {amount} ({payee}) не выполнена: {reason}. Деньги возвращены на счёт',
    en: 'The operation of {amount_en} ({payee}) was not made: {reason_en}. The money is back in your account',
  },
  approval_requested: {
    ru: '{person} просит одобрить операцию {amount} ({payee}): {reason}',
    en: '{person} asks you to approve an operation of {amount_en} ({payee}): {reason_en}',
  },
  trusted_invited: {
    ru: '{person} хочет назначить вас доверенным лицом. Принять можно в настройках',
    en: '{person} wants you as their trusted person. You can accept in Settings',
  },
  // The role ended: their wallet closed or froze, or they stepped down (antifraud/trusted.ts).
  trusted_left: {
    ru: 'Доверенное лицо {name} больше не подтверждает ваши операции: {reason}. Назначьте другое в настройках',
    en: 'Your trusted person {name} no longer approves your operations: {reason_en}. Name another in Settings',
  },
  trusted_changed: {
    ru: 'Доверенное лицо: {change}',
    en: 'Trusted person: {change_en}',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type NotificationMessageKey = keyof typeof NOTIFICATION_MESSAGES;

export function isMessageKey(key: string): key is NotificationMessageKey {
  return Object.hasOwn(NOTIFICATION_MESSAGES, key);
}

/**
 * The parameters that are a person's name (or a payee's label), read in Latin letters in English
 * (docs/decisions/language-and-format.md#names-on-english-screens); a goal's name is not one.
 */
const PERSON_PARAMS: Partial<Record<NotificationMessageKey, readonly string[]>> = {
  registration: ['first_name'],
  money_in_transfer_from: ['sender'],
  request_incoming: ['name'],
  request_declined: ['name'],
  schedule_reminder: ['name'],
  schedule_skipped: ['name'],
  hold_created: ['payee'],
  hold_awaiting: ['payee'],
  hold_released: ['payee'],
  hold_closed: ['payee'],
  approval_requested: ['person', 'payee'],
  trusted_invited: ['person'],
  trusted_left: ['name'],
};

/** The text of a stored notification in a language, `{name}` placeholders filled from its parameters. */
export function renderMessage(key: string, params: Record<string, string>, language: Language): string {
  const template: string = isMessageKey(key) ? NOTIFICATION_MESSAGES[key][language] : key;
  const names = isMessageKey(key) ? (PERSON_PARAMS[key] ?? []) : [];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = String(params[name]);
    return names.includes(name) ? nameIn(value, language) : value;
  });
}

/** What a stored notification is about, by its key: tapping it opens that (a held operation's row). */
export function aboutOf(key: string, params: Record<string, string>): NotificationAbout {
  if (key.startsWith('hold_'))
    return params.operation ? { type: 'operation', id: params.operation } : { type: 'holds' };
  if (key === 'approval_requested') return { type: 'approvals' };
  if (key.startsWith('trusted_')) return { type: 'trusted_person' };
  if (key.startsWith('request_')) return { type: 'requests' };
  if (key.startsWith('schedule_goal_')) return { type: 'savings' };
  if (key.startsWith('budget_')) return { type: 'budgets' };
  if (key.startsWith('schedule_')) return { type: 'schedules' };
  if (key.startsWith('identification_')) return { type: 'identification' };
  if (key === 'support_reply') return { type: 'support' };
  if (key === 'registration') return { type: 'wallet' };
  return { type: 'security' };
}
