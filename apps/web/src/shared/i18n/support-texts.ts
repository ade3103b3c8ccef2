/**
 * Texts of the support chat (docs/decisions/support.md#support-chat). Registered with the signed-in area
 * (signed-in-texts.ts); `supportEn`'s type makes a missing English key a compile error.
 */
export const supportRu = {
  support: {
    title: 'Поддержка',
    open: 'Написать в поддержку',
    ask: 'Поддержка',
    aboutOperation: 'Написать в поддержку об операции «{{description}}»',
    settingsText: 'Операторы отвечают в чате: о платеже, выводе, доступе к кошельку.',
    empty: 'Напишите, что случилось: операторы отвечают здесь же, обычно за несколько минут.',
    earlier: 'Показать более ранние',
    you: 'Вы',
    operator: 'Поддержка',
    about: 'Об операции: {{description}}, {{amount}}',
    image: 'Изображение {{n}}',
    read: 'прочитано',
    delivered: 'доставлено',
    attached: 'К сообщению будет приложена операция, из которой вы пришли',
    message: 'Сообщение',
    attach: 'Приложить изображения (до {{max}})',
    files_one: 'Выбрано {{count}} изображение',
    files_few: 'Выбрано {{count}} изображения',
    files_many: 'Выбрано {{count}} изображений',
    files_other: 'Выбрано {{count}} изображения',
    send: 'Отправить',
    sendFailed: 'Сообщение не отправлено. Попробуйте ещё раз',
  },
};

export const supportEn: typeof supportRu = {
  support: {
    title: 'Support',
    open: 'Write to support',
    ask: 'Support',
    aboutOperation: 'Write to support about “{{description}}”',
    settingsText: 'Operators answer in the chat: about a payment, a withdrawal, access to the wallet.',
    empty: 'Tell us what happened: operators answer right here, usually within minutes.',
    earlier: 'Show earlier messages',
    you: 'You',
    operator: 'Support',
    about: 'About the operation: {{description}}, {{amount}}',
    image: 'Image {{n}}',
    read: 'read',
    delivered: 'delivered',
    attached: 'The operation you came from is attached to the message',
    message: 'Message',
    attach: 'Attach images (up to {{max}})',
    files_one: '{{count}} image picked',
    files_few: '{{count}} images picked',
    files_many: '{{count}} images picked',
    files_other: '{{count}} images picked',
    send: 'Send',
    sendFailed: 'The message was not sent. Please try again',
  },
};
