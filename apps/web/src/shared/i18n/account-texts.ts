/**
 * Texts of a person's account (docs/decisions.md section 18): the terms at registration and after a
 * new version, the operator's identity, sign-in with a passkey, sign-out, the theme and one's own
 * data. Spread into ru.ts and en.ts; `accountEn`'s type makes a missing English key a compile error.
 */
export const accountRu = {
  account: {
    terms: {
      documents: 'Документы',
      consent: 'Я прочитал(а) условия использования, тарифы и памятку Банка России и принимаю их',
      loading: 'Загружаем документы…',
      error: 'Не удалось загрузить документы. Обновите страницу',
      newTab: '(откроется в новой вкладке)',
    },
    termsDialog: {
      title: 'Условия обновились',
      text: 'Мы опубликовали новую редакцию документов. Прочитайте их: операции с деньгами продолжатся, когда вы примете новую редакцию.',
      accept: 'Принимаю',
      later: 'Позже',
    },
    operator: {
      title: 'Оператор электронных денежных средств',
      licence: 'Лицензия Банка России {{licence}}',
      register: 'Запись в реестре Банка России',
    },
    passkeyLogin: {
      button: 'Войти с ключом доступа',
      or: 'или',
      failed: 'Не удалось войти с ключом доступа. Попробуйте ещё раз или войдите по SMS',
    },
    signOut: 'Выйти',
    theme: {
      title: 'Оформление',
      hint: 'Светлая или тёмная тема; «Как в системе» следует настройке устройства',
      light: 'Светлая',
      dark: 'Тёмная',
      system: 'Как в системе',
    },
    export: {
      title: 'Мои данные',
      hint: 'Всё, что кошелёк хранит о вас: профиль, сеансы, согласия, операции, уведомления, запросы, шаблоны и регулярные переводы. Без PIN-кода, номеров документов и ключей',
      json: 'Скачать JSON',
      pdf: 'Скачать PDF',
      error: 'Не удалось подготовить файл. Попробуйте позже',
    },
  },
};

export const accountEn: typeof accountRu = {
  account: {
    terms: {
      documents: 'Documents',
      consent: "I have read the terms of use, the tariffs and the Bank of Russia's memo, and I accept them",
      loading: 'Loading the documents…',
      error: 'The documents could not be loaded. Please reload the page',
      newTab: '(opens in a new tab)',
    },
    termsDialog: {
      title: 'The terms have been updated',
      text: 'We have published a new version of the documents. Please read them: money operations go on once you accept the new version.',
      accept: 'I accept',
      later: 'Later',
    },
    operator: {
      title: 'Electronic money operator',
      licence: 'Bank of Russia licence {{licence}}',
      register: "Entry in the Bank of Russia's register",
    },
    passkeyLogin: {
      button: 'Sign in with a passkey',
      or: 'or',
      failed: 'Signing in with a passkey failed. Please try again or sign in by SMS',
    },
    signOut: 'Sign out',
    theme: {
      title: 'Appearance',
      hint: "Light or dark; 'System' follows the device's setting",
      light: 'Light',
      dark: 'Dark',
      system: 'System',
    },
    export: {
      title: 'My data',
      hint: 'Everything the wallet keeps about you: profile, sessions, consents, operations, notifications, requests, templates and scheduled transfers. No PIN, document numbers or keys',
      json: 'Download JSON',
      pdf: 'Download PDF',
      error: 'The file could not be prepared. Please try later',
    },
  },
};
