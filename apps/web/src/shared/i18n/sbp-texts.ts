/**
 * Texts of sending and topping up by СБП (docs/decisions/sbp.md), in both languages; registered in i18n.ts.
 */
export const sbpRu = {
  sbp: {
    way: 'Куда',
    wayWallet: 'В кошелёк',
    wayCard: 'На карту',
    waySbp: 'СБП',
    phone: 'Телефон получателя',
    phoneHint: 'Номер, привязанный к счёту в банке (только +7)',
    own: 'Себе в другой банк',
    ownHint: 'На ваш номер {{phone}}; банк сверит ваше имя',
    bank: 'Банк получателя',
    bankSearch: 'Найти банк',
    noBank: 'Банк не найден',
    comment: 'Сообщение получателю',
    recipient: 'Получатель в банке {{bank}}',
    noFee: 'Без комиссии',
    submit: 'Перевести по СБП',
    modalTitle: 'Перевод по СБП',
    success: 'Перевод по СБП отправлен',
    to: '{{bank}}, {{phone}}',
    toNamed: '{{name}} · {{bank}}, {{phone}}',
    text: 'Перевод по номеру телефона в любой банк — участник Системы быстрых платежей. Сумма резервируется на счёте и уходит после ответа банка; если банк откажет, деньги вернутся.',
    topUpWay: 'Способ оплаты',
    topUpCard: 'Картой',
    topUpSbp: 'Через СБП',
    topUpSbpText:
      'Оплата через СБП в приложении вашего банка: на компьютере — по QR-коду, на телефоне — кнопкой. После оплаты вы вернётесь в кошелёк.',
  },
};

export const sbpEn: typeof sbpRu = {
  sbp: {
    way: 'Where to',
    wayWallet: 'To a wallet',
    wayCard: 'To a card',
    waySbp: 'SBP',
    phone: 'Recipient’s phone',
    phoneHint: 'The number linked to the bank account (+7 only)',
    own: 'To my account in another bank',
    ownHint: 'To your number {{phone}}; the bank checks your name',
    bank: 'Recipient’s bank',
    bankSearch: 'Find a bank',
    noBank: 'No bank found',
    comment: 'Message to the recipient',
    recipient: 'Recipient at {{bank}}',
    noFee: 'No fee',
    submit: 'Send by SBP',
    modalTitle: 'Faster Payments transfer',
    success: 'Your Faster Payments transfer has been sent',
    to: '{{bank}}, {{phone}}',
    toNamed: '{{name}} · {{bank}}, {{phone}}',
    text: 'Send by phone number to any bank in the Faster Payments System (SBP). The amount is held in your account and leaves once the bank answers; if the bank declines, the money comes back.',
    topUpWay: 'How to pay',
    topUpCard: 'By card',
    topUpSbp: 'By SBP',
    topUpSbpText:
      'Pay by SBP in your bank’s app: with a QR code on a computer, with a button on a phone. After paying you come back to the wallet.',
  },
};
