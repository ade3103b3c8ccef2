/**
 * A fresh code sent to one's own phone: what a step beyond the PIN takes (lifting a freeze, closing
 * the wallet, confirming a held payment). One sender with the resend cooldown, for every such screen.
 */
import { useState } from 'react';
import { isErrorAnswer } from '../api/api-error.ts';
import { callApi } from '../api/client.ts';
import { useCountdown } from '../hooks/use-countdown.ts';
import { resendWait } from './resend.ts';

/** What the code confirms, so its SMS says it: a step of one's own, or a held operation by its id. */
export type OwnCodeFor = 'unfreeze' | 'close_wallet' | { hold: string };

/** Seconds until another code may be asked, from the answer or the cooldown refusal, or the error. */
export async function sendOwnCode(
  phone: string,
  confirms: OwnCodeFor,
): Promise<{ wait: number; error: string | null }> {
  const answer =
    typeof confirms === 'string'
      ? await callApi('sendCode', { body: { phone, purpose: confirms } })
      : await callApi('holdCode', { params: { id: confirms.hold } });
  const refusal = isErrorAnswer(answer) ? answer : null;
  // A code sent less than a minute ago still holds: the cooldown is a wait, not an error.
  const error = refusal && refusal.code !== 'CODE_RESEND_TOO_SOON' ? refusal.message : null;
  return { wait: resendWait(refusal ?? answer), error };
}

export interface OwnCode {
  send(): Promise<void>;
  sending: boolean;
  /** A code went out (or one had just gone out): the person types it now. */
  sent: boolean;
  /** Seconds until another may be asked. */
  left: number;
  error: string | null;
}

export function useOwnCode(phone: string | undefined, confirms: OwnCodeFor): OwnCode {
  const [left, startCountdown] = useCountdown();
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function send() {
    if (!phone || sending) return;
    setSending(true);
    setError(null);
    try {
      const answer = await sendOwnCode(phone, confirms);
      setError(answer.error);
      if (!answer.error) {
        setSent(true);
        startCountdown(answer.wait);
      }
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setSending(false);
    }
  }
  return { send, sending, sent, left, error };
}
