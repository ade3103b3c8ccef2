/**
 * The Faster Payments System's errors (docs/decisions/sbp.md), in both languages; errors.ts puts them in the
 * one table.
 */
export const SBP_ERRORS = {
  SBP_BANK_UNKNOWN: {
    http: 400,
    ru: 'Этого банка нет среди участников СБП. Выберите банк из списка',
    en: 'This bank is not a member of the Faster Payments System. Please choose a bank from the list',
  },
  SBP_PHONE_NOT_RUSSIAN: {
    http: 400,
    ru: 'По СБП можно перевести только на российский номер (+7)',
    en: 'Faster Payments transfers go only to Russian numbers (+7)',
  },
  SBP_AMOUNT_RANGE: {
    http: 400,
    ru: 'Перевод по СБП — от {min} до {max}',
    en: 'A Faster Payments transfer is from {min} to {max}',
  },
  SBP_OWN_PHONE: {
    http: 400,
    ru: 'Перевод себе отправляется на ваш номер телефона',
    en: 'A transfer to yourself goes to your own phone number',
  },
  SBP_OWN_NEEDS_FULL: {
    http: 403,
    ru: 'Перевод себе в другой банк доступен с полной идентификацией: банк сверяет ваше имя',
    en: 'Transfers to your account in another bank need full identification: the bank checks your name',
  },
  SBP_UNAVAILABLE: {
    http: 503,
    ru: 'Переводы по СБП временно недоступны. Попробуйте позже',
    en: 'Faster Payments transfers are temporarily unavailable. Please try again later',
  },
} as const;
