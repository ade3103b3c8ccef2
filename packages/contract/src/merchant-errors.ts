/**
 * The merchants' errors (docs/decisions/merchants.md#merchants), in both languages; errors.ts puts them in
 * the one table without the merchants' shapes, so the sign-in page's script does not carry them.
 */
export const MERCHANT_ERRORS = {
  MERCHANT_LEVEL_REQUIRED: {
    http: 403,
    ru: 'Бизнес-аккаунт доступен с полной идентификацией',
    en: 'A merchant account needs the full identification level',
  },
  MERCHANT_EXISTS: { http: 409, ru: 'Бизнес-аккаунт уже открыт', en: 'You already have a merchant account' },
  MERCHANT_NOT_FOUND: { http: 404, ru: 'Бизнес-аккаунт не найден', en: 'Merchant account not found' },
  MERCHANT_NOT_PENDING: {
    http: 409,
    ru: 'Заявка уже рассмотрена',
    en: 'The application has been decided already',
  },
  MERCHANT_NOT_ACTIVE: {
    http: 403,
    ru: 'Бизнес-аккаунт ещё не одобрен',
    en: 'The merchant account is not approved yet',
  },
  MERCHANT_AUTH_INVALID: {
    http: 401,
    ru: 'Неверный идентификатор магазина или секретный ключ',
    en: 'Wrong merchant id or secret key',
  },
  MERCHANT_KEY_LIMIT: {
    http: 409,
    ru: 'Ключей может быть не больше {limit}',
    en: 'You can have at most {limit} keys',
  },
  MERCHANT_URL_REFUSED: {
    http: 400,
    ru: 'Адрес уведомлений не подходит: {reason}',
    en: 'The notification address cannot be used: {reason}',
  },
  MERCHANT_NOTIFICATION_NOT_FOUND: { http: 404, ru: 'Уведомление не найдено', en: 'Notification not found' },
  MERCHANT_NO_NOTIFICATION_URL: {
    http: 409,
    ru: 'Сначала укажите адрес для уведомлений',
    en: 'Set the notification address first',
  },
  MERCHANT_REFUND_NOT_FOUND: { http: 404, ru: 'Возврат не найден', en: 'Refund not found' },
  MERCHANT_PAYMENT_NOT_FOUND: { http: 404, ru: 'Платёж не найден', en: 'Payment not found' },
  MERCHANT_PAYMENT_PAID: { http: 409, ru: 'Платёж уже оплачен', en: 'The payment is paid already' },
  MERCHANT_PAYMENT_CLOSED: {
    http: 409,
    ru: 'Платёж отменён или срок его оплаты истёк',
    en: 'The payment is cancelled or has expired',
  },
  MERCHANT_PAYMENT_OWN: {
    http: 400,
    ru: 'Нельзя оплатить свой же платёж',
    en: 'You cannot pay your own payment',
  },
  MERCHANT_ACCOUNT_NEW: {
    http: 409,
    ru: 'Выплаты на новый расчётный счёт начнутся через сутки после его изменения',
    en: 'Payouts to a new settlement account start a day after it was set',
  },
  MERCHANT_NOTHING_TO_SETTLE: {
    http: 409,
    ru: 'На балансе магазина нет денег для вывода',
    en: "There is no money in the merchant's balance to pay out",
  },
  MERCHANT_AMOUNT_TOO_SMALL: {
    http: 400,
    ru: 'Сумма платежа — не меньше {min}',
    en: 'A payment is at least {min}',
  },
} as const satisfies Record<string, { http: number; ru: string; en: string }>;
