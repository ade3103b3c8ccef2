/**
 * The signed-in area's texts of a person's account (docs/decisions/account.md#a-persons-account): the new
 * terms' dialog, sign-out, the theme, one's own data and closing the wallet. A file of their own, added when
 * that area loads (signed-in-texts.ts), so the sign-in page's JavaScript does not carry them.
 */
export const accountSignedInRu = {
  account: {
    termsDialog: {
      title: 'Условия обновились',
      text: 'Мы опубликовали новую редакцию документов. Прочитайте их: операции с деньгами продолжатся, когда вы примете новую редакцию.',
      accept: 'Принимаю',
      later: 'Позже',
    },
    signOut: 'Выйти',
    theme: {
      title: 'Оформление',
      hint: 'Светлая или тёмная тема; «Системная» следует настройке устройства',
      light: 'Светлая',
      dark: 'Тёмная',
      system: 'Системная',
    },
    export: {
      title: 'Мои данные',
      hint: 'Всё, что кошелёк хранит о вас: профиль, сеансы, согласия, операции, уведомления, запросы, шаблоны, регулярные переводы, копилки, бюджеты, доверенное лицо и переписка с поддержкой. Без PIN-кода, номеров документов и ключей',
      json: 'Скачать JSON',
      pdf: 'Скачать PDF',
      error: 'Не удалось подготовить файл. Попробуйте позже',
    },
    close: {
      title: 'Закрыть кошелёк',
      hint: 'Остаток в рублях придёт на вашу карту, регулярные переводы и запросы денег закончатся, все сеансы завершатся. Записи об операциях хранятся пять лет, как требует закон',
      open: 'Закрыть кошелёк',
      balances: 'Что будет с деньгами',
      outcome: {
        payout: 'на карту',
        exchange_first: 'сначала обменяйте или потратьте',
        none: 'пусто',
      },
      schedules: 'Регулярных переводов закончится: {{count}}',
      requests: 'Запросов денег закроется: {{count}}',
      card: 'Карта для остатка',
      confirm: 'Закрыть навсегда',
      cancel: 'Отмена',
      cardInvalid: 'Проверьте номер карты',
      exportTitle: 'Сначала сохраните свои данные',
      exportText:
        'После закрытия войти будет нельзя. Скачайте операции, переписку и остальное, что хранится о вас',
      trustingTitle: 'Вы — доверенное лицо',
      trusting:
        '{{names}} назначили вас доверенным лицом. После закрытия вы не сможете одобрять их операции — предупредите их, чтобы они назначили другого человека',
    },
  },
};

export const accountSignedInEn: typeof accountSignedInRu = {
  account: {
    termsDialog: {
      title: 'The terms have been updated',
      text: 'We have published a new version of the documents. Please read them: money operations go on once you accept the new version.',
      accept: 'I accept',
      later: 'Later',
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
      hint: 'Everything the wallet keeps about you: profile, sessions, consents, operations, notifications, requests, templates, scheduled transfers, savings goals, budgets, the trusted person and the support chat. No PIN, document numbers or keys',
      json: 'Download JSON',
      pdf: 'Download PDF',
      error: 'The file could not be prepared. Please try later',
    },
    close: {
      title: 'Close the wallet',
      hint: 'The roubles left go to your card, scheduled transfers and money requests end, and every session ends. Records of operations are kept for five years, as the law requires',
      open: 'Close the wallet',
      balances: 'What happens to the money',
      outcome: {
        payout: 'to the card',
        exchange_first: 'exchange or spend it first',
        none: 'empty',
      },
      schedules: 'Scheduled transfers to end: {{count}}',
      requests: 'Money requests to close: {{count}}',
      card: 'Card for the balance',
      confirm: 'Close for good',
      cancel: 'Cancel',
      cardInvalid: 'Please check the card number',
      exportTitle: 'Save your data first',
      exportText:
        'Once closed, you can no longer sign in. Download your operations, chat and everything else kept about you',
      trustingTitle: 'You are a trusted person',
      trusting:
        '{{names}} named you their trusted person. Once closed, you can no longer approve their operations: tell them, so they name someone else',
    },
  },
};
