/**
 * Log in (docs/product.md#screens-and-routes and docs/product.md#states-and-transitions): step 1 phone ->
 * send code -> step 2 code -> login.
 * Success stores the token and goes to '/'; an error answer shows the server's message and stays
 * on the code. Back returns to the phone. Where the browser can use one, 'Войти с ключом доступа'
 * signs in with a discoverable passkey instead, no SMS (docs/decisions/account.md#a-persons-account).
 */
import '../auth.css';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { usePending } from '../../../shared/hooks/use-pending.ts';
import { ROUTES } from '../../../shared/routes.ts';
import { takeReturnPath } from '../../../shared/session/return-after-sign-in.ts';
import { useSessionStore } from '../../../shared/store/session-store.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { ArrowLeftIcon } from '../../../shared/ui/icons.tsx';
import { PhoneField } from '../../../shared/ui/phone-field.tsx';
import { failureMessage } from '../answers.ts';
import { login } from '../api/login.ts';
import { CodeStep } from '../components/code-step.tsx';
import { useCodeStep } from '../use-code-step.ts';
import { usePhone } from '../use-phone.ts';

/** As @simplewebauthn's browserSupportsWebAuthn, without loading it with the sign-in page. */
const canUsePasskey = typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSessionStore();
  const { language, phone, setPhone, e164, display, problem } = usePhone();
  const [step, setStep] = useState<'phone' | 'code'>('phone');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const codeStep = useCodeStep(e164);
  const [runLogin, signingIn] = usePending(login);
  // The passkey code loads when pressed: the sign-in page keeps its JavaScript budget.
  const [runPasskey, passkeyPending] = usePending(async (): Promise<string | null> => {
    const passkeys = await import('../../../shared/passkeys/passkeys.ts');
    try {
      return await passkeys.signInWithPasskey();
    } catch (failure) {
      // A cancelled device prompt is no error to show.
      if (failure instanceof passkeys.PasskeyCancelled) return null;
      throw failure;
    }
  });
  const [passkeyError, setPasskeyError] = useState<string | null>(null);

  async function passkeySignIn() {
    setPasskeyError(null);
    try {
      const token = await runPasskey();
      if (!token) return;
      session.setAuthToken(token);
      navigate(takeReturnPath(ROUTES.Home), { replace: true });
    } catch (failure) {
      setPasskeyError(
        failure instanceof ApiError && failure.answer
          ? failure.answer.message
          : t('account.passkeyLogin.failed'),
      );
    }
  }

  async function submitPhone(event: FormEvent) {
    event.preventDefault();
    const found = problem();
    setPhoneError(found ? t(`validation.${found}`) : null);
    if (found || codeStep.props.resending) return;
    try {
      const refusal = await codeStep.send(null);
      if (refusal) setPhoneError(refusal.message);
      else setStep('code');
    } catch (failure) {
      setPhoneError(failureMessage(failure, t));
    }
  }

  if (step === 'code') {
    return (
      <CodeStep
        title={t('auth.login.codeTitle')}
        text={t('auth.login.codeText')}
        phone={display}
        {...codeStep.props}
        submitLabel={t('auth.login.enter')}
        onSubmit={() =>
          codeStep.confirm(
            (code) => runLogin({ phone: e164, confirm_code: code }),
            () => navigate(takeReturnPath(ROUTES.Home), { replace: true }),
          )
        }
        submitting={signingIn}
        backLabel={t('auth.login.back')}
        onBack={() => {
          codeStep.leave();
          setStep('phone');
        }}
      />
    );
  }

  return (
    <form className="auth-page" onSubmit={submitPhone} noValidate>
      <Link to={ROUTES.AuthIn} className="auth-back auth-mobile-only">
        <ArrowLeftIcon />
        {t('common.back')}
      </Link>
      <div className="auth-heading">
        <h1 className="auth-title">{t('auth.login.title')}</h1>
        <p className="auth-lead">{t('auth.login.phoneText')}</p>
      </div>
      <PhoneField
        label={t('auth.register.phone')}
        value={phone}
        onChange={(next) => {
          setPhone(next);
          if (phoneError) setPhoneError(null);
        }}
        language={language}
        error={phoneError}
        hint={t('auth.login.phoneHelp')}
        autoFocus
      />
      <div className="auth-actions">
        <Button type="submit" block busy={codeStep.props.resending}>
          {t('auth.login.sendCode')}
        </Button>
        {canUsePasskey && (
          <>
            <p className="auth-or">{t('account.passkeyLogin.or')}</p>
            <Button variant="secondary" block onClick={passkeySignIn} busy={passkeyPending}>
              {t('account.passkeyLogin.button')}
            </Button>
            {passkeyError && (
              <p className="field__error" role="alert">
                {passkeyError}
              </p>
            )}
          </>
        )}
      </div>
      <p className="auth-footer">
        {t('auth.login.noAccount')} <Link to={ROUTES.Register}>{t('auth.login.register')}</Link>
      </p>
    </form>
  );
}

export default LoginPage;
