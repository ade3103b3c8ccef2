/**
 * The operators' back office's errors (docs/decisions/back-office.md, 'The operators' back office'), in both
 * languages; errors.ts puts them in the one table.
 */
export const OPS_ERRORS = {
  OPERATOR_SIGN_IN_FAILED: {
    http: 401,
    ru: 'Неверный e-mail, пароль или код',
    en: 'Wrong e-mail, password or code',
  },
  OPERATOR_LOCKED: {
    http: 423,
    ru: 'Вход заблокирован после неверных попыток. Попробуйте через {minutes} мин или обратитесь к администратору',
    en: 'Sign-in is locked after wrong attempts. Please try again in {minutes} min or ask an administrator',
  },
  PASSWORD_CHANGE_REQUIRED: {
    http: 403,
    ru: 'Задайте новый пароль вместо одноразового',
    en: 'Please replace the one-time password with a new one',
  },
  PASSWORD_WEAK: {
    http: 400,
    ru: 'Новый пароль: не короче 12 символов и не совпадает со старым',
    en: 'The new password must be at least 12 characters and differ from the old one',
  },
  OPERATOR_FORBIDDEN: {
    http: 403,
    ru: 'Ваша роль не позволяет это действие',
    en: 'Your role does not allow this action',
  },
  OPERATOR_EXISTS: {
    http: 409,
    ru: 'Оператор с этим e-mail уже есть',
    en: 'An operator with this e-mail exists',
  },
  FOUR_EYES_REQUIRED: {
    http: 403,
    ru: 'Возврат подтверждает другой оператор, не тот, кто его предложил',
    en: 'A refund is approved by another operator than the one who proposed it',
  },
  REFUND_NOT_PROPOSED: {
    http: 409,
    ru: 'Возврат уже рассмотрен',
    en: 'The refund has been decided already',
  },
  REFUND_NOT_ALLOWED: {
    http: 409,
    ru: 'Эту операцию нельзя вернуть',
    en: 'This operation cannot be refunded',
  },
  REFUND_EXCEEDS: {
    http: 409,
    ru: 'Сумма больше, чем осталось вернуть по операции: {left}',
    en: 'The amount is more than is left to refund of the operation: {left}',
  },
  SUPPORT_NOT_OPEN: {
    http: 409,
    ru: 'Разговор уже закрыт',
    en: 'The conversation is closed already',
  },
  JOB_NOT_FOUND: {
    http: 404,
    ru: 'Задача не найдена среди упавших',
    en: 'The job is not among the failed ones',
  },
  PAYOUT_NOT_OPEN: {
    http: 409,
    ru: 'Выплата уже завершена',
    en: 'The payout is settled already',
  },
  APPLICATION_NOT_IN_REVIEW: {
    http: 404,
    ru: 'Заявка не ждёт решения оператора',
    en: 'The application is not waiting for an operator',
  },
  USER_NOT_FOUND: { http: 404, ru: 'Пользователь не найден', en: 'User not found' },
  OPERATOR_SELF: {
    http: 409,
    ru: 'Это действие над своей учётной записью делает другой администратор',
    en: 'Another administrator does this to your own account',
  },
  OPERATOR_DISABLED: {
    http: 409,
    ru: 'Оператор отключён',
    en: 'The operator is disabled',
  },
  ROLE_NOT_PROPOSED: {
    http: 409,
    ru: 'Нет роли, ожидающей подтверждения',
    en: 'No role is waiting for confirmation',
  },
  ROLE_SECOND_ADMIN: {
    http: 403,
    ru: 'Роль подтверждает второй администратор, не тот, кто её предложил',
    en: 'A second administrator confirms the role, not the one who proposed it',
  },
  FOUR_EYES_RELATED: {
    http: 403,
    ru: 'Вас создал или менял тот, кто предложил это действие: подтверждает другой оператор',
    en: 'The operator who proposed this created or changed your account: another operator confirms it',
  },
  SETUP_LINK_INVALID: {
    http: 410,
    ru: 'Ссылка недействительна или уже использована. Попросите администратора о новой',
    en: 'The link is invalid or used already. Please ask an administrator for a new one',
  },
  SETUP_CODE_WRONG: {
    http: 400,
    ru: 'Код не подошёл. Проверьте время на телефоне и введите новый код',
    en: 'The code did not match. Check the phone’s time and enter a new code',
  },
  SETUP_PASSWORD_REQUIRED: {
    http: 400,
    ru: 'Введите пароль',
    en: 'Please enter the password',
  },
} as const satisfies Record<string, { http: number; ru: string; en: string }>;
