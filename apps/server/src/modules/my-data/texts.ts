/** The PDF of one's own data in both languages: section titles and the labels of its fields. */
import type { Language } from '@e-wallet/contract';

type Local = Record<Language, string>;

export const TITLE: Local = { ru: 'Мои данные в E-Wallet', en: 'My data in E-Wallet' };
export const GENERATED: Local = { ru: 'Сформировано', en: 'Generated' };
export const PAGE: Local = { ru: 'Страница', en: 'Page' };
export const NONE: Local = { ru: 'нет', en: 'none' };
export const YES: Local = { ru: 'да', en: 'yes' };
export const NO: Local = { ru: 'нет', en: 'no' };

export const SECTIONS: Record<string, Local> = {
  profile: { ru: 'Профиль', en: 'Profile' },
  consents: { ru: 'Согласия с условиями', en: 'Consents to the terms' },
  sessions: { ru: 'Сеансы и устройства', en: 'Sessions and devices' },
  passkeys: { ru: 'Ключи доступа', en: 'Passkeys' },
  push_subscriptions: { ru: 'Подписки на уведомления', en: 'Push subscriptions' },
  notification_settings: { ru: 'Настройки уведомлений', en: 'Notification settings' },
  identification: { ru: 'Идентификация', en: 'Identification' },
  accounts: { ru: 'Счета', en: 'Accounts' },
  operations: { ru: 'Операции', en: 'Operations' },
  notifications: { ru: 'Уведомления', en: 'Notifications' },
  requests: { ru: 'Запросы денег', en: 'Money requests' },
  templates: { ru: 'Шаблоны', en: 'Templates' },
  schedules: { ru: 'Регулярные переводы', en: 'Scheduled transfers' },
  operation_reports: { ru: 'Обращения «Это не я»', en: "'It wasn't me' reports" },
};

export const LABELS: Record<string, Local> = {
  first_name: { ru: 'Имя', en: 'First name' },
  last_name: { ru: 'Фамилия', en: 'Last name' },
  phone: { ru: 'Телефон', en: 'Phone' },
  email: { ru: 'E-mail', en: 'E-mail' },
  registered_at: { ru: 'Дата регистрации', en: 'Registered' },
  frozen_at: { ru: 'Заблокирован', en: 'Frozen' },
  frozen_by: { ru: 'Кем заблокирован', en: 'Frozen by' },
  terms_version: { ru: 'Редакция условий', en: 'Terms version' },
  accepted_at: { ru: 'Принято', en: 'Accepted' },
  created_at: { ru: 'Создано', en: 'Created' },
  last_used_at: { ru: 'Последнее использование', en: 'Last used' },
  ended_at: { ru: 'Завершён', en: 'Ended' },
  expires_at: { ru: 'Действует до', en: 'Expires' },
  user_agent: { ru: 'Устройство', en: 'Device' },
  ip: { ru: 'IP-адрес', en: 'IP address' },
  name: { ru: 'Название', en: 'Name' },
  language: { ru: 'Язык', en: 'Language' },
  push_money_in: { ru: 'Поступления', en: 'Money in' },
  push_security: { ru: 'Безопасность', en: 'Security' },
  level: { ru: 'Уровень', en: 'Level' },
  target_level: { ru: 'Запрошенный уровень', en: 'Requested level' },
  provider: { ru: 'Проверяющий', en: 'Provider' },
  status: { ru: 'Статус', en: 'Status' },
  reason: { ru: 'Причина', en: 'Reason' },
  finished_at: { ru: 'Завершено', en: 'Finished' },
  document_type: { ru: 'Тип документа', en: 'Document type' },
  submitted_at: { ru: 'Отправлено', en: 'Submitted' },
  decided_at: { ru: 'Решение', en: 'Decided' },
  verifications: { ru: 'Проверки', en: 'Verifications' },
  applications: { ru: 'Заявки', en: 'Applications' },
  incoming: { ru: 'Входящие', en: 'Incoming' },
  outgoing: { ru: 'Исходящие', en: 'Outgoing' },
  id: { ru: 'Номер', en: 'Id' },
  account_id: { ru: 'Счёт', en: 'Account' },
  amount: { ru: 'Сумма', en: 'Amount' },
  balance: { ru: 'Баланс', en: 'Balance' },
  currency_code: { ru: 'Валюта', en: 'Currency' },
  description: { ru: 'Описание', en: 'Description' },
  message: { ru: 'Текст', en: 'Text' },
  kind: { ru: 'Вид', en: 'Kind' },
  is_read: { ru: 'Прочитано', en: 'Read' },
  comment: { ru: 'Комментарий', en: 'Comment' },
  period: { ru: 'Периодичность', en: 'Period' },
  first_run_at: { ru: 'Первый перевод', en: 'First transfer' },
  next_run_at: { ru: 'Следующий перевод', en: 'Next transfer' },
  ends_at: { ru: 'Окончание', en: 'Ends' },
  wallet_transaction_type: { ru: 'Тип', en: 'Type' },
  direction: { ru: 'Направление', en: 'Direction' },
  counterparty: { ru: 'Контрагент', en: 'Counterparty' },
  recipient: { ru: 'Получатель', en: 'Recipient' },
};
