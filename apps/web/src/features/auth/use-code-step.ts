/**
 * The SMS-code step of signing in and registering, written once: the code typed, the server's words
 * under it, the neutral note, and 'send again' with the server's cooldown. `props` is what CodeStep
 * shows; the pages add their titles, their confirming call and where they go next.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorAnswer } from '../../shared/api/api-error.ts';
import { useCountdown } from '../../shared/hooks/use-countdown.ts';
import { usePending } from '../../shared/hooks/use-pending.ts';
import { resendWait } from '../../shared/security/resend.ts';
import { useSessionStore } from '../../shared/store/session-store.ts';
import { errorOf, failureMessage } from './answers.ts';
import { sendCode } from './api/send-code.ts';

export function useCodeStep(phone: string) {
  const { t } = useTranslation();
  const session = useSessionStore();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [resendIn, startCountdown] = useCountdown();
  const [runSendCode, sending] = usePending(sendCode);

  /**
   * The server answered a call that sends a code (send_code, register): the cooldown starts; unless
   * it refused, the boxes empty for the code with `sentNote` under them. A code sent less than a
   * minute ago still holds: that refusal is a note, not a wall. Answers any other refusal.
   */
  function answered(answer: unknown, sentNote: string | null): ErrorAnswer | null {
    const refusal = errorOf(answer);
    session.setPhone(phone);
    startCountdown(resendWait(refusal ?? (answer as { resend_after?: number })));
    if (refusal && refusal.code !== 'CODE_RESEND_TOO_SOON') return refusal;
    session.toggleSendConfirmCode();
    setCode('');
    setError(null);
    setNote(refusal ? refusal.message : sentNote);
    return null;
  }

  /** Sends a code; answers the refusal, or null when the person goes on to type it. */
  async function send(sentNote: string | null): Promise<ErrorAnswer | null> {
    return answered(await runSendCode({ phone }), sentNote);
  }

  async function resend() {
    setNote(null);
    try {
      const refusal = await send(t('auth.code.sent'));
      if (refusal) {
        setError(null);
        setNote(refusal.message);
      }
    } catch (failure) {
      setNote(failureMessage(failure, t));
    }
  }

  /** Confirms the code with `call`; a token in its answer signs the person in, then `next` runs. */
  async function confirm(call: (code: string) => Promise<unknown>, next: () => void) {
    setNote(null);
    try {
      const answer = await call(code);
      const refusal = errorOf(answer);
      if (refusal) {
        setError(refusal.message);
        return;
      }
      if (answer && typeof answer === 'object' && 'auth_token' in answer)
        session.setAuthToken((answer as { auth_token: string }).auth_token);
      setError(null);
      next();
    } catch (failure) {
      setError(failureMessage(failure, t));
    }
  }

  /** Leaving the step (back to the phone or the details): its words do not follow. */
  function leave() {
    setNote(null);
    setError(null);
  }

  return {
    answered,
    send,
    confirm,
    leave,
    props: {
      code,
      onCodeChange: (next: string) => {
        setCode(next);
        if (error) setError(null);
      },
      error,
      note,
      onResend: resend,
      resending: sending,
      resendIn,
    },
  };
}
