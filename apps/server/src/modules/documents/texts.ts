/** The words of receipts, statements and the public receipt page, in both languages. */
import { formatCalendarDate, formatDateTime, type Language } from '@e-wallet/contract';

const RU = {
  receiptTitle: 'Квитанция об операции',
  statementTitle: 'Выписка по счёту',
  operation: 'Операция',
  number: 'Номер операции',
  date: 'Дата и время',
  amount: 'Сумма',
  fee: 'Комиссия',
  status: 'Статус',
  account: 'Счёт',
  counterparty: 'Контрагент',
  payer: 'Плательщик',
  payee: 'Получатель',
  balanceAfter: 'Доступно после операции',
  verify: 'Проверить квитанцию',
  verifyHint: 'Отсканируйте QR-код или откройте ссылку, чтобы проверить подлинность квитанции',
  operator: 'Оператор',
  period: 'Период',
  currency: 'Валюта',
  opening: 'Входящий остаток',
  closing: 'Исходящий остаток',
  moneyIn: 'Поступления',
  moneyOut: 'Списания',
  balance: 'Остаток',
  kind: 'Тип',
  page: 'Страница',
  postedOnly: 'В выписке — проведённые операции; суммы в обработке не входят.',
  none: 'За период операций не было.',
  topupSource: 'Банковская карта (платёжный сервис)',
  confirmed: 'Квитанция подлинная',
  confirmedText: 'Эта операция проведена оператором и записана так:',
  notFound: 'Квитанция не найдена',
  notFoundText: 'Код квитанции неизвестен или изменён. Проверьте ссылку или отсканируйте QR-код ещё раз.',
  tooMany: 'Слишком много проверок. Попробуйте через минуту.',
  statuses: { pending: 'В обработке', complete: 'Выполнена', failed: 'Не выполнена' },
  kinds: {
    topup: 'Пополнение',
    withdrawal: 'Вывод',
    transfer: 'Перевод',
    payment: 'Оплата',
    refund: 'Возврат',
    fee: 'Комиссия',
    exchange: 'Обмен',
  },
} as const;

type Texts = { [K in keyof typeof RU]: (typeof RU)[K] extends string ? string : Record<string, string> };

const EN: Texts = {
  receiptTitle: 'Operation receipt',
  statementTitle: 'Account statement',
  operation: 'Operation',
  number: 'Operation number',
  date: 'Date and time',
  amount: 'Amount',
  fee: 'Fee',
  status: 'Status',
  account: 'Account',
  counterparty: 'Counterparty',
  payer: 'Payer',
  payee: 'Payee',
  balanceAfter: 'Available after the operation',
  verify: 'Verify the receipt',
  verifyHint: 'Scan the QR code or open the link to check that the receipt is genuine',
  operator: 'Operator',
  period: 'Period',
  currency: 'Currency',
  opening: 'Opening balance',
  closing: 'Closing balance',
  moneyIn: 'Money in',
  moneyOut: 'Money out',
  balance: 'Balance',
  kind: 'Type',
  page: 'Page',
  postedOnly: 'The statement lists completed money; amounts still in progress are not included.',
  none: 'No operations in this period.',
  topupSource: 'Bank card (payments service)',
  confirmed: 'The receipt is genuine',
  confirmedText: 'The operator made this operation and recorded it as follows:',
  notFound: 'Receipt not found',
  notFoundText: 'The receipt code is unknown or was altered. Check the link or scan the QR code again.',
  tooMany: 'Too many checks. Please try again in a minute.',
  statuses: { pending: 'In progress', complete: 'Complete', failed: 'Failed' },
  kinds: {
    topup: 'Top-up',
    withdrawal: 'Withdrawal',
    transfer: 'Transfer',
    payment: 'Payment',
    refund: 'Refund',
    exchange: 'Exchange',
    fee: 'Fee',
  },
};

export function textsOf(language: Language): Texts {
  return language === 'en' ? EN : RU;
}

/** A time as documents print it: the app's own format, Moscow time ("25 ноября 2026 г., 18:19 МСК"). */
export function printedTime(at: Date, language: Language): string {
  return formatDateTime(at, language);
}

/** A day of a period as documents print it: "24 ноября 2026 г." (ru), "24 November 2026" (en). */
export function printedDate(date: string, language: Language): string {
  return formatCalendarDate(date, language);
}
