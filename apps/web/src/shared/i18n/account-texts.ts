/**
 * Texts of a person's account the sign-in pages show (docs/decisions/account.md#a-persons-account): the terms
 * at registration, the operator's identity, sign-in with a passkey. Spread into ru.ts and en.ts;
 * `accountEn`'s type makes a missing English key a compile error. The rest: account-signed-in-texts.ts.
 */
export const accountRu = {
  account: {
    terms: {
      documents: 'Документы',
      consent: 'Я прочитал(а) условия использования, тарифы и памятку Банка России и принимаю их',
      loading: 'Загружаем документы…',
      error: 'Не удалось загрузить документы. Обновите страницу',
      newTab: '(откроется в новой вкладке)',
    },
    operator: {
      title: 'Оператор электронных денежных средств',
      licence: 'Лицензия Банка России {{licence}}',
      register: 'Запись в реестре Банка России',
    },
    passkeyLogin: {
      button: 'Войти с ключом доступа',
      or: 'или',
      failed: 'Не удалось войти с ключом доступа. Попробуйте ещё раз или войдите по SMS',
    },
  },
};

export const accountEn: typeof accountRu = {
  account: {
    terms: {
      documents: 'Documents',
      consent: "I have read the terms of use, the tariffs and the Bank of Russia's memo, and I accept them",
      loading: 'Loading the documents…',
      error: 'The documents could not be loaded. Please reload the page',
      newTab: '(opens in a new tab)',
    },
    operator: {
      title: 'Electronic money operator',
      licence: 'Bank of Russia licence {{licence}}',
      register: "Entry in the Bank of Russia's register",
    },
    passkeyLogin: {
      button: 'Sign in with a passkey',
      or: 'or',
      failed: 'Signing in with a passkey failed. Please try again or sign in by SMS',
    },
  },
};
