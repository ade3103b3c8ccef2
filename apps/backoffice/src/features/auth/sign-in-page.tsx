/** Sign-in with e-mail, password and the authenticator's code; a password made by the command line is replaced at once. */
import { OPERATOR_PASSWORD_MIN } from '@e-wallet/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError, opsCall, session } from '../../shared/api/client.ts';
import { FieldError } from '../../shared/ui/field-error.tsx';
import { ErrorText, Title } from '../../shared/ui/ui.tsx';

const SignIn = z.object({
  email: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(200),
  totp: z.string().regex(/^\d{6}$/),
  new_password: z.string().max(200).optional(),
});
type SignIn = z.infer<typeof SignIn>;

export function SignInPage() {
  const { t } = useTranslation();
  const [needsNew, setNeedsNew] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const form = useForm<SignIn>({
    resolver: zodResolver(
      needsNew ? SignIn.extend({ new_password: z.string().min(OPERATOR_PASSWORD_MIN).max(200) }) : SignIn,
    ),
    defaultValues: { email: '', password: '', totp: '', new_password: '' },
  });
  // The new password field appears: it is where the operator goes next.
  useEffect(() => {
    if (needsNew) form.setFocus('new_password');
  }, [needsNew, form]);
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const answer = await opsCall<{ token: string }>('login', {
        body: { ...values, new_password: needsNew ? values.new_password : undefined },
      });
      session.set(answer.token);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'PASSWORD_CHANGE_REQUIRED') setNeedsNew(true);
      setError(e);
    }
  });
  const { errors } = form.formState;
  return (
    <main id="main" className="signin">
      <Title>{t('signIn.title')}</Title>
      <form onSubmit={submit} noValidate>
        <label htmlFor="email">{t('signIn.email')}</label>
        <input id="email" type="email" autoComplete="username" {...form.register('email')} />
        <FieldError error={errors.email} label={t('signIn.email')} />
        <label htmlFor="password">{t('signIn.password')}</label>
        <input id="password" type="password" autoComplete="current-password" {...form.register('password')} />
        <FieldError error={errors.password} label={t('signIn.password')} />
        <label htmlFor="totp">{t('signIn.code')}</label>
        <input
          id="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          {...form.register('totp', { setValueAs: (value: string) => value.replace(/\D/g, '') })}
        />
        <FieldError error={errors.totp} label={t('signIn.code')} />
        {needsNew && (
          <>
            <p className="note">{t('signIn.newPasswordNote')}</p>
            <label htmlFor="new-password">{t('signIn.newPassword')}</label>
            <input
              id="new-password"
              type="password"
              autoComplete="new-password"
              {...form.register('new_password')}
            />
            <FieldError error={errors.new_password} label={t('signIn.newPassword')} />
          </>
        )}
        <ErrorText error={error} />
        <button type="submit" disabled={form.formState.isSubmitting}>
          {t('signIn.submit')}
        </button>
      </form>
    </main>
  );
}
