/**
 * Antifraud's and the trusted person's errors (docs/decisions/antifraud.md, 'Antifraud and the trusted
 * person'), in both languages; errors.ts puts them in the one table.
 */
export const ANTIFRAUD_ERRORS = {
  RECIPIENT_FRAUD_LISTED: {
    http: 403,
    ru: 'Получатель есть в базе случаев мошенничества (Банка России или службы безопасности E-Wallet): перевод не выполнен. Не переводите деньги тем, кто торопит или представляется сотрудником банка, и позвоните в поддержку',
    en: 'The recipient is in a database of fraud cases (the Bank of Russia’s or E-Wallet’s security team’s): nothing was sent. Do not send money to anyone who rushes you or says they are from a bank, and call support',
  },
  HOLD_NOT_FOUND: { http: 404, ru: 'Операция не найдена', en: 'Operation not found' },
  HOLD_CLOSED: {
    http: 409,
    ru: 'Решение по этой операции уже принято',
    en: 'This operation has already been decided',
  },
  HOLD_WAITING: {
    http: 409,
    ru: 'Эта оплата уже ждёт подтверждения. Откройте её в истории, чтобы подтвердить или отменить',
    en: 'This payment is already waiting to be confirmed. Open it in History to confirm or cancel it',
  },
  HOLD_EXPIRED: {
    http: 409,
    ru: 'Время на подтверждение вышло: деньги возвращены на счёт',
    en: 'The time to confirm is over: the money is back in the account',
  },
  TRUSTED_PERSON_SELF: {
    http: 400,
    ru: 'Доверенным лицом нельзя назначить себя',
    en: 'You cannot be your own trusted person',
  },
  TRUSTED_PERSON_EXISTS: {
    http: 409,
    ru: 'Доверенное лицо уже назначено. Чтобы назначить другое, сначала удалите его',
    en: 'A trusted person is already named. Remove them first to name another',
  },
  TRUSTED_PERSON_NOT_FOUND: {
    http: 404,
    ru: 'Доверенное лицо не назначено',
    en: 'No trusted person is named',
  },
  FRAUD_LIST_SECOND_OPERATOR: {
    http: 403,
    ru: 'Запись списка мошенников подтверждает другой оператор, не тот, кто её предложил',
    en: 'Another operator confirms a fraud-list entry, not the one who proposed it',
  },
  FRAUD_LIST_NOT_FOUND: { http: 404, ru: 'Запись не найдена', en: 'Entry not found' },
  HOLD_AWAITS_TRUSTED_PERSON: {
    http: 409,
    ru: 'Операцию одобряет или отклоняет доверенное лицо клиента: оператор может её только отклонить',
    en: "The client's trusted person approves or declines this operation: an operator can only refuse it",
  },
  HOLD_RELEASE_SECOND_OPERATOR: {
    http: 403,
    ru: 'Деньги выпускает второй оператор, не тот, кто это предложил',
    en: 'A second operator releases the money, not the one who proposed it',
  },
  HOLD_RELEASE_COMPLIANCE: {
    http: 403,
    ru: 'Выпуск этой операции подтверждает оператор с ролью «Комплаенс»',
    en: 'An operator with the compliance role confirms the release of this operation',
  },
  FRAUD_LIST_EXISTS: {
    http: 409,
    ru: 'Этот получатель уже в списке',
    en: 'This recipient is already on the list',
  },
  TRUSTED_PERSON_UNKNOWN: {
    http: 404,
    ru: 'Пользователь с таким номером не найден. Доверенным лицом может быть только пользователь E-Wallet',
    en: 'No user with this number. A trusted person must be an E-Wallet user',
  },
} as const satisfies Record<string, { http: number; ru: string; en: string }>;
