/**
 * A verification (KYC) provider: checks a person's documents on its own hosted page and reports the
 * outcome by signed webhook (POST /v2/wallet/webhooks/kyc) and on request. A real adapter (Sumsub,
 * Onfido) implements the same interface; the sandbox is the default.
 */

import type { LevelName } from '../../policy/levels.ts';
import type { ManualKycProvider } from './manual.ts';
import type { SandboxKycProvider } from './sandbox.ts';

/** The provider's view of an application; `sequence` grows with every change it reports. */
export type KycProviderStatus = 'pending' | 'in_review' | 'approved' | 'rejected' | 'canceled';

/** An application as a provider that keeps its own (the sandbox, operator review) stores it. */
export interface KycApplication {
  id: string;
  reference: string;
  user_id: string;
  target_level: LevelName;
  status: KycProviderStatus;
  reason: string | null;
  sequence: bigint;
  document_type: string | null;
  document_number_masked: string | null;
  full_name: string | null;
  birth_date: string | null;
  created_at: Date;
}

export interface KycState {
  status: KycProviderStatus;
  /** Why it was rejected or canceled, ready to show; null otherwise. */
  reason: string | null;
  sequence: number;
}

export interface KycStart {
  /** The provider's identifier of the application: webhooks name it as verification_id. */
  providerId: string;
  /** Where the person completes the verification (absolute, or relative to this server). */
  url: string;
}

export interface KycProvider {
  /** Stored beside each verification, so a callback is matched to the provider that made it. */
  readonly id: string;
  /** Opens an application for `reference` (our verification id) to reach `targetLevel`. */
  start(input: { reference: string; userId: string; targetLevel: LevelName }): Promise<KycStart>;
  /** The application's current state, as the provider sees it. */
  fetch(providerId: string): Promise<KycState>;
  /** Closes an application we no longer wait for; later decisions on it are ignored by us anyway. */
  cancel(providerId: string, reason: string): Promise<void>;
  /** A provider whose applications operators decide (KYC_PROVIDER=manual): the documents and decisions. */
  readonly operatorReview?: OperatorReview;
  /** A provider whose page this server serves (the sandbox): the page's controls. */
  readonly hostedPage?: HostedKycPage;
}

export type OperatorReview = Pick<
  ManualKycProvider,
  'application' | 'list' | 'submit' | 'addPhoto' | 'photos' | 'photoCount' | 'documentNumber' | 'decide'
>;
export type HostedKycPage = Pick<SandboxKycProvider, 'setTransport' | 'application' | 'decide'>;
