/**
 * The inactivity lock screen (docs/decisions/security-rules.md#security-baselines): after 15 minutes without
 * activity a full-screen modal dialog covers the signed-in area and asks for the PIN, which the server
 * checks (POST /v2/wallet/auth/pin/verify). A native modal <dialog> makes everything behind it
 * inert (neither clickable nor read by screen readers) and keeps focus inside; its opaque
 * background hides the page. A wrong PIN shows the server's message (attempts left, or the
 * lock-out minutes); the tenth wrong PIN in a row revokes the session, and the API client turns
 * that INVALID_TOKEN into signing out. A person without a PIN (has_pin false) is never locked.
 */
import './app-lock.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error.ts';
import { useAuthInfo } from '../../api/auth-info.ts';
import { callApi } from '../../api/client.ts';
import { useName } from '../../format/person-name.ts';
import { confirmWithPasskey, PasskeyCancelled, useCanUsePasskey } from '../../passkeys/passkeys.ts';
import { Button } from '../../ui/button.tsx';
import { CodeInput } from '../../ui/code-input.tsx';
import { useIdleLock } from './use-idle-lock.ts';

export interface AppLockProps {
  /** Signs out (revokes the token): the lock's way out for someone who forgot the PIN. */
  onSignOut: () => void;
  signingOut?: boolean;
}

/** Watches for inactivity and shows the lock screen; render it once inside the signed-in area. */
export function AppLock({ onSignOut, signingOut = false }: AppLockProps) {
  const { locked, unlock } = useIdleLock();
  const info = useAuthInfo();
  const named = useName();
  // Until the user is known the lock errs on the safe side; has_pin false never locks.
  const show = locked && info.data?.has_pin !== false;
  if (!show) return null;
  const name = info.data ? named(`${info.data.first_name} ${info.data.last_name}`.trim()) : '';
  return <LockScreen name={name} onUnlocked={unlock} onSignOut={onSignOut} signingOut={signingOut} />;
}

interface LockScreenProps {
  name: string;
  onUnlocked: () => void;
  onSignOut: () => void;
  signingOut: boolean;
}

async function verifyPin(pin: string): Promise<void> {
  await callApi('verifyPin', { body: { pin } });
}

export function LockScreen({ name, onUnlocked, onSignOut, signingOut }: LockScreenProps) {
  const { t } = useTranslation();
  // A second way beside the PIN, offered when this person has a passkey and the browser can use one.
  const hasPasskeys = useCanUsePasskey();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const queryClient = useQueryClient();
  const passkey = useMutation({
    mutationFn: confirmWithPasskey,
    onSuccess: () => {
      // The passkey's 'last used' changed.
      void queryClient.invalidateQueries({ queryKey: ['passkeys'] });
      onUnlocked();
    },
    onError: (failure) => {
      if (failure instanceof PasskeyCancelled) return;
      setError(failure instanceof ApiError && failure.answer ? failure.answer.message : failure.message);
    },
  });
  const verify = useMutation({
    mutationFn: verifyPin,
    onSuccess: () => onUnlocked(),
    onError: (failure) => {
      setError(failure instanceof ApiError && failure.answer ? failure.answer.message : t('appLock.failed'));
      setPin('');
      setAttempt((count) => count + 1);
    },
  });

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    // Escape would close a native dialog: the lock only opens with the PIN.
    const onCancel = (event: Event) => event.preventDefault();
    element.addEventListener('cancel', onCancel);
    const root = document.documentElement;
    root.classList.add('app-locked');
    return () => {
      element.removeEventListener('cancel', onCancel);
      root.classList.remove('app-locked');
      if (typeof element.close === 'function' && element.open) element.close();
    };
  }, []);

  // A wrong PIN empties the boxes: the first one takes the keyboard again.
  useEffect(() => {
    if (attempt === 0 || verify.isPending) return;
    dialog.current?.querySelector<HTMLInputElement>('.code-input__box:not([disabled])')?.focus();
  }, [attempt, verify.isPending]);

  const submit = (value: string) => {
    if (verify.isPending) return;
    setError(null);
    verify.mutate(value);
  };

  return (
    <dialog
      ref={dialog}
      className="app-lock"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-testid="app-lock"
    >
      <div className="app-lock__panel">
        <div className="app-lock__badge" aria-hidden="true">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            width="28"
            height="28"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <rect x="5" y="11" width="14" height="10" rx="2" />
            <path d="M8 11V8a4 4 0 0 1 8 0v3" strokeLinecap="round" />
          </svg>
        </div>
        <h1 id={titleId} className="app-lock__title">
          {t('appLock.title')}
        </h1>
        <p id={textId} className="app-lock__text">
          {name ? t('appLock.greeting', { name }) : t('appLock.greetingNoName')}
        </p>
        <p className="app-lock__reason">{t('appLock.reason')}</p>
        <form
          className="app-lock__form"
          onSubmit={(event) => {
            event.preventDefault();
            if (/^\d{4}$/.test(pin)) submit(pin);
          }}
        >
          <CodeInput
            value={pin}
            onChange={setPin}
            label={t('appLock.pinLabel')}
            digitLabel={(n, total) => t('appLock.pinDigit', { n, total })}
            secret
            autoFocus
            error={error}
            disabled={verify.isPending || signingOut}
            onComplete={submit}
          />
          <p className="app-lock__status" aria-live="polite">
            {verify.isPending ? t('appLock.checking') : ''}
          </p>
        </form>
        {hasPasskeys && (
          <Button
            block
            variant="secondary"
            busy={passkey.isPending}
            disabled={verify.isPending || signingOut}
            onClick={() => {
              setError(null);
              passkey.mutate();
            }}
          >
            {passkey.isPending ? t('appLock.passkeyChecking') : t('appLock.passkey')}
          </Button>
        )}
        <Button variant="secondary" block onClick={onSignOut} busy={signingOut} disabled={verify.isPending}>
          {t('appLock.signOut')}
        </Button>
      </div>
    </dialog>
  );
}
