/**
 * Russian texts: the active language (docs/product.md#business-constants-and-limits). Every key exists in
 * en.ts too (i18n.test.ts).
 */
import { accountRu } from './account-texts.ts';
import { policyRu } from './policy-texts.ts';
import { securityRu } from './security-texts.ts';
export const ru = {
  common: {
    continue: 'Продолжить',
    back: 'Назад',
    close: 'Закрыть',
    loading: 'Загрузка…',
    networkError: 'Нет связи с сервером. Проверьте интернет и попробуйте ещё раз',
    unexpectedError: 'Что-то пошло не так. Попробуйте позже',
  },
  brand: {
    name: 'E-Wallet',
    tagline: 'Электронный кошелёк',
  },
  routes: {
    Home: 'Главная',
    History: 'История',
    Wallet: 'Счета',
    WalletId: 'Счёт',
    WalletPaymentsFinish: 'Результат пополнения',
    WalletTopUp: 'Пополнение',
    WalletWithdrawal: 'Вывод средств',
    WalletSave: 'Перевод',
    WalletExchange: 'Обмен',
    Payment: 'Оплата',
    Settings: 'Настройки',
    AuthIn: 'Вход в кошелёк',
    LogIn: 'Вход',
    Register: 'Регистрация',
  },
  layout: {
    greeting: 'Здравствуйте, {{name}}!',
    greetingAnonymous: 'Здравствуйте!',
    subtitle: 'Ваш электронный кошелёк',
    logout: 'Выйти',
    home: 'На главную',
  },
  errorBoundary: {
    title: 'Что-то пошло не так',
    text: 'Не удалось показать эту страницу. Попробуйте ещё раз.',
    retry: 'Повторить',
    home: 'На главную',
  },
  auth: {
    /** The other language's name in its own words: the switch before sign-in. */
    language: 'English',
    landing: {
      title: 'Кошелёк по номеру телефона',
      text: 'Пополняйте, переводите и платите по QR-коду — всё в одном приложении.',
      // The desktop brand panel beside the landing says something of its own, not the headline again.
      brandTitle: 'Платите и переводите за секунды',
      brandText:
        'Оплата по QR-коду, вывод на карту и переводы друзьям. Если телефон потерян, кошелёк блокируется в одно касание.',
      imageAlt: 'Телефон с банковской картой и монетами',
      register: 'Зарегистрироваться',
      haveAccount: 'Уже есть аккаунт?',
      login: 'Войти',
    },
    register: {
      title: 'Регистрация',
      progress: 'Шаг {{step}} из {{total}}',
      detailsText: 'Заполните данные — на телефон придёт SMS с кодом.',
      firstName: 'Имя',
      lastName: 'Фамилия',
      email: 'E-mail',
      phone: 'Телефон',
      continue: 'Продолжить',
      haveAccount: 'Уже зарегистрированы?',
      login: 'Войти',
      codeTitle: 'Подтвердите номер',
      codeText: 'Мы отправили SMS с кодом на номер',
      changeNumber: 'Изменить номер',
      pinTitle: 'Придумайте PIN-код',
      pinText: 'Четыре цифры. PIN-код подтверждает выводы, переводы и платежи.',
      pinLabel: 'PIN-код',
      pinRepeat: 'Повторите PIN-код',
      pinRepeatDigit: 'Повтор PIN-кода: знак {{n}} из {{total}}',
      pinMismatch: 'PIN-коды не совпадают',
    },
    login: {
      title: 'Вход',
      phoneText: 'Введите номер телефона, указанный при регистрации.',
      phoneHelp: 'Мы отправим SMS с кодом подтверждения на этот номер.',
      sendCode: 'Получить код',
      noAccount: 'Нет аккаунта?',
      register: 'Зарегистрироваться',
      backToLanding: 'На главную страницу',
      codeTitle: 'Введите код из SMS',
      codeText: 'Код отправлен на номер',
      enter: 'Войти',
      back: 'Назад',
    },
    code: {
      label: 'Код из SMS',
      digit: 'Цифра {{n}} из {{total}}',
      sendAgain: 'Отправить код ещё раз',
      sendAgainIn: 'Отправить код ещё раз через {{seconds}} с',
      sent: 'Новый код отправлен',
    },
  },
  validation: {
    firstNameRequired: 'Введите имя',
    nameInvalid: 'Только буквы, пробел, дефис и апостроф',
    emailRequired: 'Введите e-mail',
    emailInvalid: 'Проверьте e-mail: например, name@example.ru',
    phoneIncomplete: 'Введите номер телефона полностью',
  },
  phone: {
    country: 'Страна',
    chooseCountry: 'Страна: {{name}}, код {{dial}}. Выбрать другую',
    dialogTitle: 'Выберите страну',
    search: 'Поиск страны',
    searchPlaceholder: 'Название страны',
    noResults: 'Ничего не найдено',
    mask: 'Формат номера',
  },
  // The money screens (wallet, history, accounts, layout panels).
  ...accountRu,
  ...policyRu,
  // The identification section and the Settings route.
  ...securityRu,
} as const;

/** The shape every language must have: same keys, any strings. */
type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Texts = Widen<typeof ru>;
