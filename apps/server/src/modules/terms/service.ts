/**
 * The terms, the tariffs and the Bank of Russia's memo on electronic money
 * (docs/decisions/account.md#a-persons-account): the terms and the memo shipped with the app under
 * apps/web/public/legal/<version>/, the tariffs rendered by the server with the fees configured (tariffs.ts),
 * in both languages. A person accepts the current version when registering; after a new one is published they
 * accept it once, and money calls wait for that (`requireAcceptedTerms`, called by http/route.ts).
 */
import type { AnswerOf, Language } from '@e-wallet/contract';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { operatorOf } from '../../policy/operator.ts';
import { tariffsUrl } from './tariffs.ts';

/**
 * The current version: the folder of apps/web/public/legal/ the terms and the memo are read from, and the
 * tariffs page's date. 2026-11-28: the tariffs list СБП and the merchants' fee.
 */
export const TERMS_VERSION = '2026-11-28';

const TITLES = {
  terms: { ru: 'Условия использования кошелька', en: 'Terms of use of the wallet' },
  tariffs: { ru: 'Тарифы', en: 'Tariffs' },
  memo: {
    ru: 'Памятка Банка России об электронных деньгах',
    en: "The Bank of Russia's memo on electronic money",
  },
} as const;

/** Sample values outside production, where the settings are required (config.ts). */
const SAMPLE_LICENCE = { ru: '№ 0000-К (пример)', en: 'No. 0000-K (sample)' };
const SAMPLE_REGISTER_URL = 'https://www.cbr.ru/registries/';

export function operatorFacts(config: Config, language: Language): AnswerOf<'terms'>['operator'] {
  return {
    name: config.OPERATOR_LEGAL_NAME ?? operatorOf(config.BRAND, language).name,
    licence: config.OPERATOR_LICENCE ?? SAMPLE_LICENCE[language],
    register_url: config.OPERATOR_REGISTER_URL ?? SAMPLE_REGISTER_URL,
  };
}

export function termsAnswer(config: Config, language: Language): AnswerOf<'terms'> {
  return {
    version: TERMS_VERSION,
    documents: (Object.keys(TITLES) as (keyof typeof TITLES)[]).map((kind) => ({
      kind,
      title: TITLES[kind][language],
      url:
        kind === 'tariffs'
          ? tariffsUrl(TERMS_VERSION, language)
          : `/legal/${TERMS_VERSION}/${kind}.${language}.html`,
    })),
    operator: operatorFacts(config, language),
  };
}

/** A version a person says they accepted: refused when missing or not the current one. */
export function checkTermsVersion(version: string | undefined): void {
  if (!version) throw new AppError('TERMS_REQUIRED');
  if (version !== TERMS_VERSION) throw new AppError('TERMS_OUTDATED');
}

/** Keeps the acceptance of a version (the first time it was accepted stands). */
export async function recordAcceptance(
  q: Queryable,
  userId: string,
  version: string,
  at: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO terms_acceptances (user_id, version, accepted_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, version) DO NOTHING`,
    [userId, version, at],
  );
}

export async function hasAcceptedTerms(q: Queryable, userId: string): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM terms_acceptances WHERE user_id = $1 AND version = $2', [
    userId,
    TERMS_VERSION,
  ]);
  return rows.length > 0;
}

/** Acceptance is never withdrawn, so a person seen to have accepted the current version is remembered. */
const accepted = new Set<string>();
const REMEMBERED_MAX = 100_000;

/** TERMS_NOT_ACCEPTED until the person accepted the current version: every money call passes here. */
export async function requireAcceptedTerms(ctx: AppContext, userId: string): Promise<void> {
  if (accepted.has(userId)) return;
  if (!(await hasAcceptedTerms(ctx.db, userId))) throw new AppError('TERMS_NOT_ACCEPTED');
  if (accepted.size >= REMEMBERED_MAX) accepted.clear();
  accepted.add(userId);
}

export async function acceptTerms(ctx: AppContext, userId: string, version: string): Promise<void> {
  checkTermsVersion(version);
  await recordAcceptance(ctx.db, userId, version, ctx.clock.now());
}
