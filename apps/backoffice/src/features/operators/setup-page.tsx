/**
 * A one-time link (`/setup#<token>`): the operator connects an authenticator app to a fresh secret and
 * sets their own password (a new operator) or proves theirs (after a TOTP reset). Nobody else ever sees
 * either; the token stays in the fragment, which no request carries.
 */
import { OPERATOR_PASSWORD_MIN } from '@e-wallet/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { type CallInput, opsCall } from '../../shared/api/client.ts';
import { FieldError } from '../../shared/ui/field-error.tsx';
import { Preferences } from '../../shared/ui/preferences.tsx';
import { ErrorText, Title } from '../../shared/ui/ui.tsx';

interface Started {
  email: string;
  purpose: 'credentials' | 'totp';
  totp_secret: string;
  otpauth_uri: string;
}

function tokenOfLink(): string | null {
  const token = window.location.hash.slice(1);
  return /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

function SetupForm({ token, started }: { token: string; started: Started }) {
  const { t } = useTranslation();
  // Not useAction: refreshing the cache after it would open the used link again.
  const finish = useMutation({ mutationFn: (input: CallInput) => opsCall('setupFinish', input) });
  const qr = useQuery({
    queryKey: ['qr', started.otpauth_uri],
    queryFn: async () =>
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await QRCode.toString(started.otpauth_uri, { type: 'svg', margin: 1 }))}`,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const credentials = started.purpose === 'credentials';
  const schema = useMemo(
    () =>
      credentials
        ? z
            .object({
              password: z.string().min(OPERATOR_PASSWORD_MIN).max(200),
              repeat: z.string().min(1),
              current_password: z.string().optional(),
              totp: z.string().regex(/^\d{6}$/),
            })
            .refine((v) => v.password === v.repeat, { path: ['repeat'], message: t('setup.mismatch') })
        : z.object({
            password: z.string().optional(),
            repeat: z.string().optional(),
            current_password: z.string().min(1).max(200),
            totp: z.string().regex(/^\d{6}$/),
          }),
    [credentials, t],
  );
  const form = useForm({
    resolver: zodResolver(schema),
    defaultValues: { password: '', repeat: '', current_password: '', totp: '' },
  });
  const submit = form.handleSubmit((values) =>
    finish
      .mutateAsync({
        body: credentials
          ? { token, password: values.password, totp: values.totp }
          : { token, current_password: values.current_password, totp: values.totp },
      })
      .catch(() => {}),
  );
  const { errors } = form.formState;
  if (finish.isSuccess)
    return (
      <div role="status" className="panel">
        <p>{t('setup.done')}</p>
        <Link to="/users" replace>
          {t('setup.toSignIn')}
        </Link>
      </div>
    );
  return (
    <form onSubmit={submit} noValidate className="setup">
      <p>{t(credentials ? 'setup.credentialsIntro' : 'setup.totpIntro', { email: started.email })}</p>
      {qr.data && <img className="qr" src={qr.data} alt={t('setup.qrAlt')} width={200} height={200} />}
      <p>
        {t('setup.secret')}: <code data-testid="totp-secret">{started.totp_secret}</code>
      </p>
      {credentials ? (
        <>
          <label htmlFor="setup-password">{t('setup.password')}</label>
          <input
            id="setup-password"
            type="password"
            autoComplete="new-password"
            {...form.register('password')}
          />
          <FieldError error={errors.password} label={t('setup.password')} />
          <label htmlFor="setup-repeat">{t('setup.passwordRepeat')}</label>
          <input id="setup-repeat" type="password" autoComplete="new-password" {...form.register('repeat')} />
          <FieldError error={errors.repeat} label={t('setup.passwordRepeat')} />
        </>
      ) : (
        <>
          <label htmlFor="setup-current">{t('setup.currentPassword')}</label>
          <input
            id="setup-current"
            type="password"
            autoComplete="current-password"
            {...form.register('current_password')}
          />
          <FieldError error={errors.current_password} label={t('setup.currentPassword')} />
        </>
      )}
      <label htmlFor="setup-code">{t('setup.code')}</label>
      <input
        id="setup-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        {...form.register('totp', { setValueAs: (value: string) => value.replace(/\D/g, '') })}
      />
      <FieldError error={errors.totp} label={t('setup.code')} />
      <ErrorText error={finish.error} />
      <button type="submit" disabled={finish.isPending}>
        {t('setup.submit')}
      </button>
    </form>
  );
}

export function SetupPage() {
  const { t } = useTranslation();
  const token = useMemo(tokenOfLink, []);
  // Opened once per page (a second opening would make a new secret): cached for the page's life.
  const started = useQuery({
    queryKey: ['setup', token],
    queryFn: () => opsCall<Started>('setupStart', { body: { token } }),
    enabled: token !== null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return (
    <>
      <header className="top">
        <span className="brand">{t('app.name')}</span>
        <Preferences />
      </header>
      <main id="main" className="signin">
        <Title>{t('setup.title')}</Title>
        {!token && <p className="error">{t('setup.noLink')}</p>}
        <ErrorText error={started.error} />
        {token && started.data && <SetupForm token={token} started={started.data} />}
        {token && started.isPending && <p>{t('app.loading')}</p>}
      </main>
    </>
  );
}
