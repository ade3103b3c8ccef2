/** Success messages of the auth calls and the SMS text, in both languages of the app. */
import type { Language } from '@e-wallet/contract';

const MESSAGES = {
  codeSent: { ru: 'Код отправлен на номер {phone}', en: 'We have sent a code to {phone}' },
  phoneConfirmed: { ru: 'Номер подтверждён', en: 'Your phone number is confirmed' },
  pinSet: { ru: 'PIN-код установлен', en: 'Your PIN is set' },
  signedIn: { ru: 'Вы вошли в кошелёк', en: 'You are signed in' },
  signedOut: { ru: 'Вы вышли из кошелька', en: 'You are signed out' },
  otherSessionsEnded: { ru: 'Все другие сеансы завершены', en: 'All other sessions are ended' },
  sessionEnded: { ru: 'Сеанс завершён', en: 'The session is ended' },
  pinChanged: { ru: 'PIN-код изменён', en: 'Your PIN is changed' },
  pinCorrect: { ru: 'PIN-код верный', en: 'The PIN is correct' },
  // Notices to a phone's owner: never a code in them.
  smsAlreadyRegistered: {
    ru: 'E-Wallet: на этот номер уже есть кошелёк, кто-то пытался зарегистрировать его снова. Чтобы войти, запросите код на экране входа.',
    en: 'E-Wallet: this number already has a wallet and someone tried to register it again. To sign in, request a code on the sign-in screen.',
  },
  smsCodesLocked: {
    ru: 'E-Wallet: для вашего номера введено слишком много неверных кодов, вход по SMS приостановлен на сутки. Если это были не вы, ваши деньги в безопасности; помощь: поддержка E-Wallet.',
    en: 'E-Wallet: too many wrong codes were entered for your number, so SMS sign-in is paused for a day. If it was not you, your money is safe; for help contact E-Wallet support.',
  },
  // Security events told outside the app (docs/decisions/live-wallet.md#the-live-wallet): one text per event,
  // no code.
  smsNewDevice: {
    ru: 'E-Wallet: вход в кошелёк с нового устройства ({device}). Если это были не вы, заблокируйте кошелёк в приложении или обратитесь в поддержку.',
    en: 'E-Wallet: a sign-in to your wallet from a new device ({device}). If it was not you, freeze your wallet in the app or contact support.',
  },
  smsPinLocked: {
    ru: 'E-Wallet: PIN-код введён неверно слишком много раз, операции с деньгами приостановлены на {minutes} мин. Если это были не вы, обратитесь в поддержку.',
    en: 'E-Wallet: the PIN was entered wrongly too many times, so money operations are paused for {minutes} min. If it was not you, contact support.',
  },
  // A change of how money is confirmed or where alerts go (step-up.ts): told at once, never a code.
  sms_passkey_added: {
    ru: 'E-Wallet: к кошельку добавлен новый ключ доступа. Если это были не вы, заблокируйте кошелёк в приложении или обратитесь в поддержку.',
    en: 'E-Wallet: a new passkey was added to your wallet. If it was not you, freeze your wallet in the app or contact support.',
  },
  sms_passkey_removed: {
    ru: 'E-Wallet: ключ доступа удалён из кошелька. Если это были не вы, заблокируйте кошелёк в приложении или обратитесь в поддержку.',
    en: 'E-Wallet: a passkey was removed from your wallet. If it was not you, freeze your wallet in the app or contact support.',
  },
  sms_pin_changed: {
    ru: 'E-Wallet: PIN-код кошелька изменён. Если это были не вы, заблокируйте кошелёк в приложении или обратитесь в поддержку.',
    en: 'E-Wallet: your wallet PIN was changed. If it was not you, freeze your wallet in the app or contact support.',
  },
  sms_push_added: {
    ru: 'E-Wallet: уведомления кошелька включены на новом устройстве. Если это были не вы, заблокируйте кошелёк в приложении или обратитесь в поддержку.',
    en: 'E-Wallet: wallet notifications were turned on for a new device. If it was not you, freeze your wallet in the app or contact support.',
  },
  sms_alerts_reduced: {
    ru: 'E-Wallet: уведомления о безопасности выключены. Если это были не вы, заблокируйте кошелёк в приложении или обратитесь в поддержку.',
    en: 'E-Wallet: security notifications were switched off. If it was not you, freeze your wallet in the app or contact support.',
  },
  sms_settlement_account_changed: {
    ru: 'E-Wallet: расчётный счёт бизнес-аккаунта изменён, выплаты на него начнутся через сутки. Если это были не вы, заблокируйте кошелёк в приложении или обратитесь в поддержку.',
    en: 'E-Wallet: your merchant settlement account was changed; payouts to it start in a day. If it was not you, freeze your wallet in the app or contact support.',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type MessageName = keyof typeof MESSAGES;

export function message(name: MessageName, language: Language, params: Record<string, string> = {}): string {
  const template: string = MESSAGES[name][language];
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.hasOwn(params, key) ? params[key]! : whole,
  );
}
