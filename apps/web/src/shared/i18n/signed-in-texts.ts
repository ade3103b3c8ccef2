/**
 * Texts only the signed-in area shows (the money screens, requests and schedules, exchange, a person's
 * account, Settings and identification), added to i18next when that
 * area's code loads (app/home-layout), so the sign-in page's JavaScript does not carry them.
 */
import { accountSignedInEn, accountSignedInRu } from './account-signed-in-texts.ts';
import { antifraudEn, antifraudRu } from './antifraud-texts.ts';
import { exchangeEn, exchangeRu } from './exchange-texts.ts';
import i18n from './i18n.ts';
import { merchantsEn, merchantsRu } from './merchants-texts.ts';
import { moneyEn, moneyRu } from './money-texts.ts';
import { requestsEn, requestsRu } from './requests-texts.ts';
import { savingsEn, savingsRu } from './savings-texts.ts';
import { sbpEn, sbpRu } from './sbp-texts.ts';
import { settingsEn, settingsRu } from './settings-texts.ts';
import { supportEn, supportRu } from './support-texts.ts';

export const signedInResources = {
  ru: {
    ...moneyRu,
    ...requestsRu,
    ...exchangeRu,
    ...accountSignedInRu,
    ...settingsRu,
    ...antifraudRu,
    ...savingsRu,
    ...supportRu,
    ...merchantsRu,
    ...sbpRu,
  },
  en: {
    ...moneyEn,
    ...requestsEn,
    ...exchangeEn,
    ...accountSignedInEn,
    ...settingsEn,
    ...antifraudEn,
    ...savingsEn,
    ...supportEn,
    ...merchantsEn,
    ...sbpEn,
  },
};

for (const language of ['ru', 'en'] as const)
  i18n.addResourceBundle(language, 'translation', signedInResources[language], true, false);
