/**
 * Stable error codes of the API and their user-facing messages in both languages.
 * Failure answers are always `{status: "error", code, message}` with HTTP 4xx
 * (docs/decisions/api.md#the-api).
 */
import { ANTIFRAUD_ERRORS } from './antifraud-errors.ts';
import type { Language } from './languages.ts';
import { MERCHANT_ERRORS } from './merchant-errors.ts';
import { formatMoney } from './money.ts';
import { MONEY_MANAGEMENT_ERRORS } from './money-management-errors.ts';
import { OPS_ERRORS } from './ops-errors.ts';
import { SBP_ERRORS } from './sbp-errors.ts';

export { LANGUAGES, type Language } from './languages.ts';

type Texts = { http: number; ru: string; en: string };

export const ERRORS = {
  VALIDATION_ERROR: { http: 400, ru: 'Проверьте введённые данные', en: 'Please check the data you entered' },
  FIELD_INVALID: { http: 400, ru: 'Проверьте поле «{field}»', en: 'Please check the field “{field}”' },
  FIELD_REQUIRED: { http: 400, ru: 'Заполните поле «{field}»', en: 'Please fill in the field “{field}”' },
  INVALID_JSON: { http: 400, ru: 'Запрос не удалось прочитать', en: 'The request could not be read' },
  PAYLOAD_TOO_LARGE: { http: 413, ru: 'Слишком большой запрос', en: 'The request is too large' },
  HEADERS_TOO_LARGE: {
    http: 431,
    ru: 'Слишком большие заголовки запроса',
    en: 'The request headers are too large',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    http: 415,
    ru: 'Неподдерживаемый формат запроса',
    en: 'Unsupported request format',
  },
  NOT_FOUND: { http: 404, ru: 'Не найдено', en: 'Not found' },
  METHOD_NOT_ALLOWED: { http: 405, ru: 'Метод не поддерживается', en: 'Method not allowed' },
  RATE_LIMITED: {
    http: 429,
    ru: 'Слишком много запросов. Попробуйте позже',
    en: 'Too many requests. Please try again later',
  },
  INTERNAL_ERROR: {
    http: 500,
    ru: 'Что-то пошло не так. Попробуйте позже',
    en: 'Something went wrong. Please try again later',
  },

  INVALID_TOKEN: { http: 401, ru: 'Войдите снова', en: 'Please sign in again' },
  PHONE_TAKEN: {
    http: 409,
    ru: 'Этот номер уже зарегистрирован. Войдите в кошелёк',
    en: 'This number is already registered. Please sign in',
  },
  EMAIL_TAKEN: {
    http: 409,
    ru: 'Этот e-mail уже используется',
    en: 'This e-mail is already in use',
  },
  PHONE_NOT_REGISTERED: {
    http: 404,
    ru: 'Номер не зарегистрирован. Сначала зарегистрируйтесь',
    en: 'This number is not registered. Please register first',
  },
  REGISTRATION_NOT_FOUND: {
    http: 404,
    ru: 'Регистрация для этого номера не начата',
    en: 'No registration was started for this number',
  },
  CODE_INVALID: { http: 400, ru: 'Неверный код', en: 'Wrong code' },
  CODE_EXPIRED: {
    http: 400,
    ru: 'Срок действия кода истёк. Запросите новый код',
    en: 'The code has expired. Please request a new one',
  },
  CODE_TRIES_EXCEEDED: {
    http: 400,
    ru: 'Слишком много неверных попыток. Запросите новый код',
    en: 'Too many wrong attempts. Please request a new code',
  },
  PASSKEY_NOT_FOUND: {
    http: 404,
    ru: 'Ключ доступа не найден',
    en: 'Passkey not found',
  },
  PASSKEY_INVALID: {
    http: 400,
    ru: 'Не удалось проверить ключ доступа. Попробуйте ещё раз',
    en: 'The passkey could not be verified. Please try again',
  },
  TERMS_REQUIRED: {
    http: 400,
    ru: 'Прочитайте условия, тарифы и памятку и подтвердите согласие с ними',
    en: 'Please read the terms, the tariffs and the memo and confirm that you accept them',
  },
  TERMS_OUTDATED: {
    http: 409,
    ru: 'Условия обновились. Прочитайте новую редакцию и подтвердите согласие',
    en: 'The terms have been updated. Please read the new version and accept it',
  },
  TERMS_NOT_ACCEPTED: {
    http: 403,
    ru: 'Условия обслуживания обновились. Примите новую редакцию, чтобы продолжить операции с деньгами',
    en: 'The terms of service have been updated. Please accept the new version to continue with money operations',
  },
  WALLET_CLOSE_PENDING: {
    http: 409,
    ru: 'Кошелёк можно закрыть, когда завершатся операции в обработке: {operations}',
    en: 'The wallet can be closed once the operations in progress are finished: {operations}',
  },
  WALLET_CLOSE_CURRENCIES: {
    http: 409,
    ru: 'Сначала обменяйте на рубли или потратьте остаток: {balances}',
    en: 'Please exchange into roubles or spend the balance first: {balances}',
  },
  WALLET_CLOSE_IDENTIFY: {
    http: 403,
    ru: 'Чтобы вывести остаток на карту, пройдите идентификацию или потратьте остаток',
    en: 'To pay the balance out to a card, please complete identification or spend the balance',
  },
  WALLET_CLOSE_TRUSTED: {
    http: 409,
    ru: 'У кошелька есть доверенное лицо: остаток уходит только с его одобрения. Сначала выведите остаток на карту (вывод дождётся одобрения доверенного лица) или удалите доверенное лицо: удаление вступит в силу через 48 часов',
    en: 'Your wallet has a trusted person: the balance leaves only with their approval. Withdraw the balance to a card first (the withdrawal waits for their approval), or remove the trusted person: the removal takes effect in 48 hours',
  },
  WALLET_CLOSE_MERCHANT: {
    http: 409,
    ru: 'На бизнес-аккаунте остались деньги: сначала выведите их на расчётный счёт и дождитесь зачисления',
    en: 'Your merchant account still holds money: pay it out to its bank account first and wait until it arrives',
  },
  WALLET_CLOSE_CHECK: {
    http: 409,
    ru: 'Закрытие остановлено для проверки: {reason}. Сначала выведите остаток на карту и подтвердите вывод кодом из SMS, затем закройте кошелёк',
    en: 'Closing is stopped for a check: {reason}. Withdraw the balance to a card first and confirm it with an SMS code, then close the wallet',
  },
  WALLET_CLOSED: {
    http: 409,
    ru: 'Кошелёк закрыт: деньги с него больше не уходят',
    en: 'The wallet is closed: no money leaves it any more',
  },
  WALLET_CLOSE_FROZEN: {
    http: 403,
    ru: 'Кошелёк заблокирован оператором: закрыть его поможет поддержка',
    en: 'The wallet is frozen by an operator: support will help you close it',
  },
  PASSKEY_LOGIN_LOCKED: {
    http: 429,
    ru: 'Слишком много неудачных входов с ключом доступа. Попробуйте через {minutes} мин или войдите по SMS',
    en: 'Too many failed passkey sign-ins. Please try again in {minutes} min or sign in by SMS',
  },
  CODE_LOCKED: {
    http: 429,
    ru: 'Слишком много неверных кодов для этого номера. Попробуйте через {hours} ч',
    en: 'Too many wrong codes for this number. Please try again in {hours} h',
  },
  CODE_RESEND_TOO_SOON: {
    http: 429,
    ru: 'Новый код можно запросить через {seconds} с',
    en: 'You can request a new code in {seconds} s',
  },
  SMS_LIMIT_PHONE: {
    http: 429,
    ru: 'Слишком много кодов на этот номер. Попробуйте через час',
    en: 'Too many codes for this number. Please try again in an hour',
  },
  SMS_LIMIT_ADDRESS: {
    http: 429,
    ru: 'Слишком много запросов кодов. Попробуйте позже',
    en: 'Too many code requests. Please try again later',
  },
  PIN_ALREADY_SET: { http: 409, ru: 'PIN-код уже установлен', en: 'The PIN is already set' },
  PIN_NOT_SET: { http: 409, ru: 'Сначала установите PIN-код', en: 'Please set your PIN first' },
  PIN_INVALID: {
    http: 400,
    ru: 'Неверный PIN-код. Осталось попыток: {left}',
    en: 'Wrong PIN. Attempts left: {left}',
  },
  PIN_LOCKED: {
    http: 423,
    ru: 'Операции заблокированы после неверных PIN-кодов. Попробуйте через {minutes} мин',
    en: 'Operations are locked after wrong PINs. Please try again in {minutes} min',
  },
  PIN_SAME: {
    http: 400,
    ru: 'Новый PIN-код совпадает со старым',
    en: 'The new PIN is the same as the old one',
  },

  CURRENCY_NOT_SUPPORTED: {
    http: 400,
    ru: 'Валюта не поддерживается',
    en: 'This currency is not supported',
  },
  CURRENCY_NOT_ALLOWED: {
    http: 400,
    ru: 'Операция доступна только в рублях',
    en: 'This operation is available in roubles only',
  },
  ACCOUNT_EXISTS: {
    http: 409,
    ru: 'Счёт в этой валюте уже открыт',
    en: 'An account in this currency is already open',
  },
  ACCOUNT_NOT_FOUND: { http: 404, ru: 'Счёт не найден', en: 'Account not found' },
  AMOUNT_INVALID: { http: 400, ru: 'Введите сумму числом', en: 'Please enter the amount as a number' },
  AMOUNT_NOT_POSITIVE: {
    http: 400,
    ru: 'Сумма должна быть больше нуля',
    en: 'The amount must be greater than zero',
  },
  AMOUNT_TOO_PRECISE: {
    http: 400,
    ru: 'Не больше {digits} знаков после запятой',
    en: 'At most {digits} digits after the decimal point',
  },
  AMOUNT_TOO_LARGE: { http: 400, ru: 'Слишком большая сумма', en: 'The amount is too large' },
  INSUFFICIENT_FUNDS: {
    http: 409,
    ru: 'Недостаточно средств на счёте',
    en: 'Insufficient funds in the account',
  },
  LIMIT_BALANCE: {
    http: 409,
    ru: 'Превышен лимит остатка на счёте для вашего уровня идентификации: {limit}',
    en: 'This exceeds the balance limit of your identification level: {limit}',
  },
  LIMIT_MONTHLY: {
    http: 409,
    ru: 'Превышен месячный лимит расходов для вашего уровня идентификации: {limit}, осталось {left}',
    en: 'This exceeds the monthly spending limit of your identification level: {limit}, {left} left',
  },
  // Says nothing of the recipient's balance, level or wallet: trying amounts must tell nobody anything.
  RECIPIENT_UNAVAILABLE: {
    http: 409,
    ru: 'Получатель сейчас не может принять перевод',
    en: 'The recipient cannot accept the transfer now',
  },
  TOPUP_NOT_ALLOWED: {
    http: 403,
    ru: 'Пополнение кошелька недоступно, пожалуйста, пройдите идентификацию.',
    en: 'Wallet top-up is unavailable, please complete identification.',
  },
  WITHDRAWAL_NOT_ALLOWED: {
    http: 403,
    ru: 'Вывод средств недоступен, пожалуйста, пройдите идентификацию.',
    en: 'Withdrawals are unavailable, please complete identification.',
  },
  TRANSFER_NOT_ALLOWED: {
    http: 403,
    ru: 'Переводы другим пользователям недоступны, пожалуйста, пройдите идентификацию.',
    en: 'Transfers to other users are unavailable, please complete identification.',
  },
  EXCHANGE_NOT_ALLOWED: {
    http: 403,
    ru: 'Обмен валют недоступен, пожалуйста, пройдите идентификацию.',
    en: 'Currency exchange is unavailable, please complete identification.',
  },
  QUOTE_EXPIRED: {
    http: 409,
    ru: 'Курс обмена устарел. Получите новый курс и подтвердите снова',
    en: 'The exchange quote has expired. Please get a new quote and confirm again',
  },
  EXCHANGE_AMOUNT_TOO_SMALL: {
    http: 400,
    ru: 'Сумма слишком мала для обмена',
    en: 'The amount is too small to exchange',
  },
  RATES_UNAVAILABLE: {
    http: 409,
    ru: 'Курсы валют сейчас недоступны. Попробуйте позже',
    en: 'Exchange rates are unavailable right now. Please try again later',
  },
  WALLET_FROZEN: {
    http: 403,
    ru: 'Кошелёк заблокирован: исходящие операции недоступны. Разблокировать его можно в настройках',
    en: 'The wallet is frozen: outgoing operations are unavailable. You can unfreeze it in Settings',
  },
  WALLET_NOT_FROZEN: { http: 409, ru: 'Кошелёк не заблокирован', en: 'The wallet is not frozen' },
  CARD_INVALID: { http: 400, ru: 'Проверьте номер карты', en: 'Please check the card number' },
  RECIPIENT_NOT_FOUND: {
    http: 404,
    ru: 'Получатель с таким номером не найден',
    en: 'No recipient with this number',
  },
  RECIPIENT_ACCOUNT_MISSING: {
    http: 409,
    ru: 'У получателя нет счёта в этой валюте. Переведите в рублях',
    en: 'The recipient has no account in this currency. Please send roubles',
  },
  RECIPIENT_SELF: {
    http: 400,
    ru: 'Нельзя перевести деньги самому себе',
    en: 'You cannot send money to yourself',
  },
  REQUEST_SELF: {
    http: 400,
    ru: 'Нельзя запросить деньги у самого себя: уберите свой номер',
    en: 'You cannot ask yourself for money: remove your own number',
  },
  REQUEST_NOT_FOUND: { http: 404, ru: 'Запрос не найден', en: 'Request not found' },
  REQUEST_PAID: { http: 409, ru: 'Запрос уже оплачен', en: 'The request is already paid' },
  REQUEST_CLOSED: {
    http: 409,
    ru: 'Запрос больше не действует: его отклонили, отменили или срок истёк',
    en: 'The request is no longer valid: it was declined, cancelled or has expired',
  },
  REQUEST_OWN: { http: 400, ru: 'Нельзя оплатить свой запрос', en: 'You cannot pay your own request' },
  TEMPLATE_NOT_FOUND: { http: 404, ru: 'Шаблон не найден', en: 'Template not found' },
  TEMPLATES_TOO_MANY: {
    http: 409,
    ru: 'Сохранено слишком много шаблонов. Удалите ненужные',
    en: 'Too many templates are saved. Please delete some',
  },
  SCHEDULE_NOT_FOUND: { http: 404, ru: 'Регулярный перевод не найден', en: 'Scheduled transfer not found' },
  SCHEDULE_TIME_INVALID: {
    http: 400,
    ru: 'Первый перевод должен быть в будущем, не дальше чем через год, и раньше окончания',
    en: 'The first transfer must be in the future, within a year, and before the end',
  },
  // A rule between two fields (a schedule's phone or goal), told as itself rather than as one field's.
  SCHEDULE_TARGET: {
    http: 400,
    ru: 'Укажите телефон получателя или копилку — что-то одно',
    en: 'Please give either the recipient’s phone or a savings goal, not both',
  },
  SCHEDULE_GOAL_CURRENCY: {
    http: 400,
    ru: 'Копилка ведётся в другой валюте: выберите валюту копилки',
    en: 'The savings goal is kept in another currency: please choose the goal’s currency',
  },
  SCHEDULES_TOO_MANY: {
    http: 409,
    ru: 'Слишком много регулярных переводов. Удалите ненужные',
    en: 'Too many scheduled transfers. Please delete some',
  },
  TRANSACTION_NOT_REPEATABLE: {
    http: 404,
    ru: 'Эту операцию нельзя повторить',
    en: 'This operation cannot be repeated',
  },
  IDEMPOTENCY_KEY_INVALID: {
    http: 400,
    ru: 'Некорректный ключ идемпотентности',
    en: 'Invalid idempotency key',
  },
  IDEMPOTENCY_CONFLICT: {
    http: 409,
    ru: 'Этот запрос уже выполнялся с другими данными',
    en: 'This request was already made with different data',
  },
  ORDER_NOT_FOUND: { http: 404, ru: 'Заказ не найден', en: 'Order not found' },
  OPERATION_NOT_FOUND: { http: 404, ru: 'Операция не найдена', en: 'Operation not found' },
  RECEIPT_NOT_FOUND: { http: 404, ru: 'Квитанция не найдена', en: 'Receipt not found' },
  STATEMENT_PERIOD_INVALID: {
    http: 400,
    ru: 'Проверьте период выписки: начало не позже конца, не длиннее {days} дней',
    en: 'Please check the statement period: the start not after the end, at most {days} days',
  },
  SESSION_NOT_FOUND: { http: 404, ru: 'Сеанс не найден', en: 'Session not found' },
  PUSH_SUBSCRIPTION_INVALID: {
    http: 400,
    ru: 'Подписку на уведомления не удалось принять',
    en: 'The notification subscription could not be accepted',
  },
  NOTIFICATION_NOT_FOUND: { http: 404, ru: 'Уведомление не найдено', en: 'Notification not found' },
  VERIFICATION_ACTIVE: {
    http: 409,
    ru: 'Проверка уже идёт. Обновите статус',
    en: 'A verification is already in progress. Please refresh its status',
  },
  VERIFICATION_NOT_NEEDED: {
    http: 409,
    ru: 'У вас уже максимальный уровень идентификации',
    en: 'You already have the highest identification level',
  },
  VERIFICATION_NOT_FOUND: { http: 404, ru: 'Проверка не найдена', en: 'Verification not found' },
  PHOTOS_LIMIT: {
    http: 409,
    ru: 'К заявке уже приложено 3 фотографии',
    en: 'Three photos are already attached to the application',
  },
  WEBHOOK_SIGNATURE_INVALID: { http: 401, ru: 'Неверная подпись', en: 'Invalid signature' },
  QR_UNSUPPORTED: {
    http: 400,
    ru: 'Оплата по QR-коду временно недоступна, приносим извинения за доставленные неудобства.',
    en: 'QR code payment is temporarily unavailable, we apologize for any inconvenience caused.',
  },
  QR_INVALID: { http: 400, ru: 'QR-код содержит ошибку: {reason}', en: 'The QR code is invalid: {reason}' },
  QR_SBP_UNAVAILABLE: {
    http: 400,
    ru: 'Оплата по QR-коду СБП доступна только через банк — участник СБП. Деньги не списаны.',
    en: 'Paying an SBP QR code needs a bank that is a member of SBP. No money was taken.',
  },
  PROVIDER_UNAVAILABLE: {
    http: 503,
    ru: 'Сервис временно недоступен. Попробуйте позже',
    en: 'The service is temporarily unavailable. Please try again later',
  },
  /**
   * The database is failing over or out of reach. A money call is all or nothing, and repeating it
   * with the same Idempotency-Key does it at most once (answers Retry-After).
   */
  SERVICE_UNAVAILABLE: {
    http: 503,
    ru: 'Сервис временно недоступен. Повторите через несколько секунд',
    en: 'The service is temporarily unavailable. Please try again in a few seconds',
  },
  ...OPS_ERRORS,
  ...ANTIFRAUD_ERRORS,
  ...MONEY_MANAGEMENT_ERRORS,
  ...SBP_ERRORS,
  ...MERCHANT_ERRORS,
} as const satisfies Record<string, Texts>;

export type ErrorCode = keyof typeof ERRORS;

/** An amount in a message: the wire's decimal string and its currency, written in the reader's language. */
export interface MoneyParam {
  amount: string;
  currency: string;
}
export type ErrorParams = Record<string, string | number | MoneyParam>;

/** A parameter as a message shows it: money as the app shows money (formatMoney), in the reader's language. */
export function paramText(value: ErrorParams[string], language: Language): string {
  return typeof value === 'object' ? formatMoney(value.amount, value.currency, language) : String(value);
}

/** The user-facing message of a code in a language, with `{name}` placeholders filled in. */
export function errorMessage(code: ErrorCode, language: Language = 'ru', params: ErrorParams = {}): string {
  const template: string = ERRORS[code][language];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? paramText(params[name]!, language) : whole,
  );
}

export function httpStatusOf(code: ErrorCode): number {
  return ERRORS[code].http;
}

export { FIELD_LABELS, fieldLabel } from './field-labels.ts';

/** Picks the answer language from an Accept-Language header; Russian unless English is preferred. */
export function languageFrom(acceptLanguage: string | undefined | null): Language {
  if (!acceptLanguage) return 'ru';
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.slice(0, 2), weight: Number.isFinite(weight) ? weight : 0 };
    })
    .filter((entry) => entry.tag === 'ru' || entry.tag === 'en')
    .sort((a, b) => b.weight - a.weight);
  return ranked[0]?.tag === 'en' ? 'en' : 'ru';
}
