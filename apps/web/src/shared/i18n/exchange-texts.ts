/**
 * Texts of the exchange screen (docs/decisions/exchange.md#exchange-between-ones-own-accounts). Registered
 * with the signed-in area (signed-in-texts.ts); both languages have every key.
 */
export const exchangeRu = {
  exchangePage: {
    title: 'Обмен',
    from: 'Списать со счёта',
    to: 'Зачислить на счёт',
    opensAccount: '{{currency}} — счёт откроется',
    give: 'Отдаю',
    receive: 'Получаю',
    rate: 'Курс',
    rateLine: '1 {{from}} = {{rate}} {{to}}',
    fee: 'Комиссия {{percent}} %',
    arrives: 'Поступит',
    quoteHolds: 'Курс действует ещё {{seconds}} с',
    quoteExpired: 'Курс устарел, получаем новый…',
    quoting: 'Считаем…',
    source: {
      sandbox: 'Тестовые курсы',
      cbr: 'Курсы Банка России',
    },
    updated: '{{source}}, обновлены {{when}}',
    submit: 'Обменять',
    modalTitle: 'Обмен',
    success: 'Обмен выполнен',
    unavailable: 'Обмен валют недоступен, пожалуйста, пройдите идентификацию.',
    text: 'Обмен между своими счетами по курсу с комиссией кошелька. Комиссия и сумма зачисления видны до подтверждения; курс держится 30 секунд.',
    summaryTo: 'Поступит {{amount}}',
    swap: 'Поменять местами',
    open: 'Обмен',
  },
};

export const exchangeEn: typeof exchangeRu = {
  exchangePage: {
    title: 'Exchange',
    from: 'From account',
    to: 'To account',
    opensAccount: '{{currency}} — the account will be opened',
    give: 'You give',
    receive: 'You get',
    rate: 'Rate',
    rateLine: '1 {{from}} = {{rate}} {{to}}',
    fee: 'Fee {{percent}} %',
    arrives: 'Arrives',
    quoteHolds: 'The rate holds for {{seconds}} s',
    quoteExpired: 'The rate has expired, getting a new one…',
    quoting: 'Calculating…',
    source: {
      sandbox: 'Test rates',
      cbr: 'Bank of Russia rates',
    },
    updated: '{{source}}, updated {{when}}',
    submit: 'Exchange',
    modalTitle: 'Exchange',
    success: 'The exchange is complete',
    unavailable: 'Currency exchange is unavailable, please complete identification.',
    text: 'Exchange between your own accounts at the rate with the wallet’s fee. The fee and what arrives are shown before you confirm; a rate holds for 30 seconds.',
    summaryTo: '{{amount}} arrives',
    swap: 'Swap',
    open: 'Exchange',
  },
};
