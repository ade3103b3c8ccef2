/** The terms, the operator, and one's own data. Requests are strict: an unknown field is an error. */
import { z } from 'zod';
import { TermsVersion } from './auth.ts';

export const TERMS_DOCUMENT_KINDS = ['terms', 'tariffs', 'memo'] as const;
export const Terms = z.object({
  version: z.string(),
  documents: z.array(z.object({ kind: z.enum(TERMS_DOCUMENT_KINDS), title: z.string(), url: z.string() })),
  /** Who issues the e-money: the legal name, the Bank of Russia licence and the register entry. */
  operator: z.object({ name: z.string(), licence: z.string(), register_url: z.string() }),
});
export const TermsAcceptRequest = z.strictObject({ terms_version: TermsVersion });
export const MeExportQuery = z.strictObject({ format: z.enum(['json', 'pdf']).optional() });
/**
 * Everything kept about the person (docs/decisions/account.md#a-persons-account): JSON, or a PDF of the same.
 */
export const MeExport = z.record(z.string(), z.unknown());
