/**
 * What the identification section shows for a user's level and latest verification
 * (docs/product.md#states-and-transitions 'Identification',
 * docs/decisions/identification-and-limits.md#identification-levels). Pure, so every state is unit-tested:
 * the section component only renders this.
 *
 * - Status text: whenever a verification exists (auth info's active_identification is the latest
 *   one, whatever its status).
 * - Refresh-status button: while a verification exists and is not final (aborted, complete).
 * - Upgrade button: when the level has ask_for_next and no verification is under way (none yet, or
 *   the last one completed and a higher level is still open).
 * - Retry-upgrade button: after an aborted verification, with its reason, while a higher level is open.
 * The spec lets the status be any value: an unknown one counts as under way (refreshable).
 */
import type { AnswerOf } from '@e-wallet/contract';

type AuthInfo = AnswerOf<'authInfo'>;
export type LevelName = AuthInfo['identification_level']['name'];
export type Verification = NonNullable<AuthInfo['active_identification']>;

export const FINAL_VERIFICATION_STATUSES: readonly string[] = ['aborted', 'complete'];

/** The status texts we have words for; anything else is shown as 'unknown' with the raw status. */
const KNOWN_STATUSES = ['pending', 'in_review', 'aborted', 'complete'] as const;
export type StatusText = (typeof KNOWN_STATUSES)[number] | 'unknown';

export interface IdentificationState {
  level: LevelName;
  /** The latest verification's status as sent, or null when there has been none. */
  status: string | null;
  /** Which status text to show, or null when there is no verification. */
  statusText: StatusText | null;
  /** The level the verification asks for. */
  targetLevel: LevelName | null;
  /** Why an aborted verification ended, when the provider said. */
  reason: string | null;
  canRefresh: boolean;
  canUpgrade: boolean;
  canRetry: boolean;
}

export function identificationState(
  info: Pick<AuthInfo, 'identification_level' | 'active_identification'>,
): IdentificationState {
  const verification = info.active_identification;
  const askForNext = info.identification_level.ask_for_next;
  const status: string | null = verification?.status ?? null;
  const final = status !== null && FINAL_VERIFICATION_STATUSES.includes(status);
  const underWay = status !== null && !final;
  return {
    level: info.identification_level.name,
    status,
    statusText:
      status === null
        ? null
        : (KNOWN_STATUSES as readonly string[]).includes(status)
          ? (status as StatusText)
          : 'unknown',
    targetLevel: verification?.target_level ?? null,
    reason: status === 'aborted' ? (verification?.reason ?? null) : null,
    canRefresh: underWay,
    canUpgrade: askForNext && (status === null || status === 'complete'),
    canRetry: askForNext && status === 'aborted',
  };
}
