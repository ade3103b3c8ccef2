/** Sign-in with e-mail, password and the authenticator's code; at the first sign-in, a new password. */
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api, session } from './api.ts';
import { useT } from './i18n.tsx';
import { ErrorText, Title } from './ui.tsx';

export function SignIn({ onSignedIn }: { onSignedIn(): void }) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [needsNew, setNeedsNew] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The new password field appears: it is where the operator goes next.
  useEffect(() => {
    if (needsNew) document.getElementById('new-password')?.focus();
  }, [needsNew]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ token: string }>('POST', '/ops/v1/auth/login', {
        email,
        password,
        totp,
        ...(needsNew ? { new_password: newPassword } : {}),
      });
      session.set(answer.token);
      onSignedIn();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'PASSWORD_CHANGE_REQUIRED') {
        setNeedsNew(true);
      }
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="signin">
      <Title>{t('signIn')}</Title>
      <form onSubmit={submit}>
        <label htmlFor="email">{t('email')}</label>
        <input
          id="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <label htmlFor="password">{t('password')}</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <label htmlFor="totp">{t('code')}</label>
        <input
          id="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          value={totp}
          onChange={(e) => setTotp(e.target.value.replace(/\D/g, ''))}
          required
        />
        {needsNew && (
          <>
            <p className="note">{t('newPasswordNote')}</p>
            <label htmlFor="new-password">{t('newPassword')}</label>
            <input
              id="new-password"
              type="password"
              autoComplete="new-password"
              minLength={12}
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
              required
            />
          </>
        )}
        <ErrorText error={error} />
        <button type="submit" disabled={busy}>
          {t('signInButton')}
        </button>
      </form>
    </main>
  );
}
