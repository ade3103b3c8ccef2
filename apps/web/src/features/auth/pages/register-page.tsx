/**
 * Register (docs/product.md#screens-and-routes and docs/product.md#states-and-transitions): three steps under
 * a three-segment progress bar.
 * 1 details -> register (an error answer stays on step 1 with the message) -> 2 code ->
 * confirm (an error shows the message; success stores the token) -> 3 PIN -> set PIN -> '/'.
 */
import '../auth.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePending } from '../../../shared/hooks/use-pending.ts';
import { ROUTES } from '../../../shared/routes.ts';
import { takeReturnPath } from '../../../shared/session/return-after-sign-in.ts';
import { useTerms } from '../../../shared/terms/terms-api.ts';
import { ProgressSteps } from '../../../shared/ui/progress-steps.tsx';
import { errorOf, type FormField, failureMessage, fieldOf } from '../answers.ts';
import { register } from '../api/register.ts';
import { registerConfirm } from '../api/register-confirm.ts';
import { setPin as savePin } from '../api/set-pin.ts';
import { CodeStep } from '../components/code-step.tsx';
import { PinStep } from '../components/pin-step.tsx';
import { type Details, RegisterDetailsStep } from '../components/register-details-step.tsx';
import { useCodeStep } from '../use-code-step.ts';
import { usePhone } from '../use-phone.ts';
import { checkEmail, checkFirstName, checkLastName } from '../validators.ts';

type Step = 1 | 2 | 3;

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { language, phone, setPhone, e164, display, problem } = usePhone();
  const [step, setStep] = useState<Step>(1);
  const [details, setDetails] = useState<Details>({ firstName: '', lastName: '', email: '' });
  const [errors, setErrors] = useState<Partial<Record<FormField, string>>>({});
  const { terms, failed: termsFailed } = useTerms();
  const [consent, setConsent] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [runRegister, registering] = usePending(register);
  const [runConfirm, confirming] = usePending(registerConfirm);
  const [runSavePin, savingPin] = usePending(savePin);
  const codeStep = useCodeStep(e164);

  const progress = (
    <ProgressSteps step={step} total={3} label={t('auth.register.progress', { step, total: 3 })} />
  );

  async function submitDetails() {
    const found: Partial<Record<FormField, string>> = {};
    const firstName = checkFirstName(details.firstName);
    const lastName = checkLastName(details.lastName);
    const email = checkEmail(details.email);
    const phoneProblem = problem();
    if (firstName) found.first_name = t(`validation.${firstName}`);
    if (lastName) found.last_name = t(`validation.${lastName}`);
    if (email) found.email = t(`validation.${email}`);
    if (phoneProblem) found.phone = t(`validation.${phoneProblem}`);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await runRegister({
        first_name: details.firstName.trim(),
        last_name: details.lastName.trim(),
        email: details.email.trim(),
        phone: e164,
        terms_version: terms?.version,
      });
      const error = errorOf(answer);
      if (error && error.code !== 'CODE_RESEND_TOO_SOON') {
        const field = fieldOf(error, language);
        if (field) setErrors({ [field]: error.message });
        else setFormError(error.message);
        return;
      }
      // A code sent a moment ago for this number is still valid: go on to it with the server's note.
      codeStep.answered(answer, null);
      setStep(2);
    } catch (failure) {
      setFormError(failureMessage(failure, t));
    }
  }

  async function submitPin() {
    try {
      const answer = await runSavePin({ pin_code: pin });
      const error = errorOf(answer);
      if (error) {
        setPinError(error.message);
        return;
      }
      navigate(takeReturnPath(ROUTES.Home), { replace: true });
    } catch (failure) {
      setPinError(failureMessage(failure, t));
    }
  }

  if (step === 2) {
    return (
      <CodeStep
        above={progress}
        title={t('auth.register.codeTitle')}
        text={t('auth.register.codeText')}
        phone={display}
        {...codeStep.props}
        submitLabel={t('auth.register.continue')}
        onSubmit={() =>
          codeStep.confirm(
            (code) => runConfirm({ phone: e164, confirm_code: code }),
            () => setStep(3),
          )
        }
        submitting={confirming}
        backLabel={t('auth.register.changeNumber')}
        onBack={() => {
          codeStep.leave();
          setStep(1);
        }}
      />
    );
  }
  if (step === 3) {
    return (
      <PinStep
        above={progress}
        pin={pin}
        onPinChange={(next) => {
          setPin(next);
          if (pinError) setPinError(null);
        }}
        error={pinError}
        onSubmit={submitPin}
        submitting={savingPin}
      />
    );
  }
  return (
    <RegisterDetailsStep
      above={progress}
      details={details}
      onDetailsChange={(next) => setDetails(next)}
      phone={phone}
      onPhoneChange={(next) => {
        setPhone(next);
        if (errors.phone) setErrors({ ...errors, phone: undefined });
      }}
      language={language}
      errors={errors}
      formError={formError}
      submitting={registering}
      onSubmit={submitDetails}
      terms={terms}
      termsFailed={termsFailed}
      consent={consent}
      onConsentChange={setConsent}
    />
  );
}

export default RegisterPage;
