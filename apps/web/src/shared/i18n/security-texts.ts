/**
 * Texts of self-protection (freeze, unfreeze, 'Это не я') and of the answers before the PIN
 * (the limit meter). Spread into ru.ts and en.ts; `securityEn`'s type makes a missing key an error.
 */
export const securityRu = {
  security: {
    freeze: 'Заблокировать кошелёк',
    freezeHint:
      'Если телефон потерян или кто-то платит за вас: все исходящие операции остановятся, другие сеансы завершатся. Поступления продолжат приходить.',
    freezeTitle: 'Заблокировать кошелёк?',
    freezeText:
      'Переводы, оплаты и вывод станут недоступны, все другие сеансы завершатся. Деньги по-прежнему смогут поступать. Разблокировать кошелёк можно в настройках по коду из SMS и PIN-коду.',
    freezeConfirm: 'Заблокировать',
    cancel: 'Отмена',
    frozenTitle: 'Кошелёк заблокирован',
    frozenText: 'Исходящие операции недоступны. Поступления приходят как обычно.',
    frozenSettings: 'Разблокировать в настройках',
    panelTitle: 'Безопасность',
    unfreeze: 'Разблокировать',
    unfreezeText: 'Чтобы разблокировать кошелёк, введите код из SMS на ваш номер {{phone}} и PIN-код.',
    sendCode: 'Получить код',
    sendAgain: 'Отправить код ещё раз',
    sendAgainIn: 'Отправить код ещё раз через {{seconds}} с',
    codeSent: 'Код отправлен на {{phone}}',
    codeLabel: 'Код из SMS',
    codeDigit: 'Цифра {{n}} из {{total}} кода',
    pinLabel: 'PIN-код',
    pinDigit: 'Цифра {{n}} из {{total}} PIN-кода',
    unfrozen: 'Кошелёк разблокирован',
    notMe: 'Это не я',
    notMeOperation: 'Это не я: {{what}}',
    notMeTitle: 'Сообщить о чужой операции',
    notMeDeviceTitle: 'Это были не вы?',
    notMeText:
      'Мы заблокируем кошелёк, чтобы остановить исходящие операции, и передадим сообщение службе поддержки.',
    notMeDeviceText:
      'Мы заблокируем кошелёк и завершим все другие сеансы, в том числе на этом устройстве. Затем смените PIN-код.',
    reasonLabel: 'Что произошло',
    reasonHint: 'Коротко, например: «Не переводил, телефон был у меня»',
    reasonRequired: 'Опишите коротко, что произошло',
    report: 'Сообщить и заблокировать',
    reported: 'Спасибо, сообщение передано. Кошелёк заблокирован.',
  },
  limitMeter: {
    label: 'Лимит расходов в месяц',
    text: 'осталось {{left}} из {{max}} в этом месяце',
  },
} as const;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const securityEn: Widen<typeof securityRu> = {
  security: {
    freeze: 'Freeze the wallet',
    freezeHint:
      'If your phone is lost or someone pays in your name: every outgoing operation stops and other sessions end. Money keeps coming in.',
    freezeTitle: 'Freeze the wallet?',
    freezeText:
      'Transfers, payments and withdrawals become unavailable and every other session ends. Money can still come in. You can unfreeze the wallet in Settings with an SMS code and your PIN.',
    freezeConfirm: 'Freeze',
    cancel: 'Cancel',
    frozenTitle: 'The wallet is frozen',
    frozenText: 'Outgoing operations are unavailable. Incoming money arrives as usual.',
    frozenSettings: 'Unfreeze in Settings',
    panelTitle: 'Security',
    unfreeze: 'Unfreeze',
    unfreezeText: 'To unfreeze the wallet, enter the SMS code sent to {{phone}} and your PIN.',
    sendCode: 'Get a code',
    sendAgain: 'Send the code again',
    sendAgainIn: 'Send the code again in {{seconds}} s',
    codeSent: 'The code was sent to {{phone}}',
    codeLabel: 'SMS code',
    codeDigit: 'Digit {{n}} of {{total}} of the code',
    pinLabel: 'PIN',
    pinDigit: 'Digit {{n}} of {{total}} of the PIN',
    unfrozen: 'The wallet is unfrozen',
    notMe: 'Not me',
    notMeOperation: 'Not me: {{what}}',
    notMeTitle: 'Report an operation that is not yours',
    notMeDeviceTitle: 'Was it not you?',
    notMeText: 'We will freeze the wallet to stop outgoing operations and pass your report to support.',
    notMeDeviceText:
      'We will freeze the wallet and end every other session, including on that device. Then change your PIN.',
    reasonLabel: 'What happened',
    reasonHint: 'Briefly, for example: “I did not send it, my phone was with me”',
    reasonRequired: 'Say briefly what happened',
    report: 'Report and freeze',
    reported: 'Thank you, the report was sent. The wallet is frozen.',
  },
  limitMeter: {
    label: 'Monthly spending limit',
    text: '{{left}} left of {{max}} this month',
  },
};
