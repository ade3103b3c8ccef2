/**
 * Register step 1: first name, last name, e-mail, phone, and the terms with a consent checkbox
 * (docs/decisions/account.md#a-persons-account). Continue is disabled while the first name or e-mail is empty
 * (docs/product.md#validation-rules) or the consent is not ticked; other problems show under their input on
 * submit.
 */
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUTES } from '../../../shared/routes.ts';
import type { Terms } from '../../../shared/terms/terms-api.ts';
import { TermsLinks } from '../../../shared/terms/terms-links.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { ArrowLeftIcon } from '../../../shared/ui/icons.tsx';
import { PhoneField, type PhoneValue } from '../../../shared/ui/phone-field.tsx';
import { FieldError, TextField } from '../../../shared/ui/text-field.tsx';
import type { FormField } from '../answers.ts';
import { canContinueDetails } from '../validators.ts';

export interface Details {
  firstName: string;
  lastName: string;
  email: string;
}

export interface RegisterDetailsStepProps {
  details: Details;
  onDetailsChange: (details: Details) => void;
  phone: PhoneValue;
  onPhoneChange: (phone: PhoneValue) => void;
  language: 'ru' | 'en';
  errors: Partial<Record<FormField, string>>;
  formError: string | null;
  submitting: boolean;
  onSubmit: () => void;
  above?: ReactNode;
  /** The current documents; null while loading (or when they failed: `termsFailed`). */
  terms: Terms | null;
  termsFailed: boolean;
  consent: boolean;
  onConsentChange: (consent: boolean) => void;
}

export function RegisterDetailsStep(props: RegisterDetailsStepProps) {
  const { t } = useTranslation();
  const { details, errors } = props;
  const ready = canContinueDetails(details.firstName, details.email) && props.consent && !!props.terms;
  const set = (key: keyof Details) => (event: { target: { value: string } }) =>
    props.onDetailsChange({ ...details, [key]: event.target.value });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (ready && !props.submitting) props.onSubmit();
  }
  return (
    <form className="auth-page" onSubmit={submit} noValidate>
      <Link to={ROUTES.AuthIn} className="auth-back auth-mobile-only">
        <ArrowLeftIcon />
        {t('common.back')}
      </Link>
      {props.above}
      <div className="auth-heading">
        <h1 className="auth-title">{t('auth.register.title')}</h1>
        <p className="auth-lead">{t('auth.register.detailsText')}</p>
      </div>
      <div className="auth-form">
        <div className="auth-form__row">
          <TextField
            label={t('auth.register.firstName')}
            name="first_name"
            autoComplete="given-name"
            value={details.firstName}
            onChange={set('firstName')}
            error={errors.first_name}
            maxLength={100}
            required
          />
          <TextField
            label={t('auth.register.lastName')}
            name="last_name"
            autoComplete="family-name"
            value={details.lastName}
            onChange={set('lastName')}
            error={errors.last_name}
            maxLength={100}
          />
        </div>
        <TextField
          label={t('auth.register.email')}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          value={details.email}
          onChange={set('email')}
          error={errors.email}
          maxLength={254}
          required
        />
        <PhoneField
          label={t('auth.register.phone')}
          value={props.phone}
          onChange={props.onPhoneChange}
          language={props.language}
          error={errors.phone}
        />
        <fieldset className="terms-block" data-testid="register-terms">
          <legend className="terms-block__title">{t('account.terms.documents')}</legend>
          {props.terms ? (
            <TermsLinks terms={props.terms} />
          ) : (
            <p role={props.termsFailed ? 'alert' : 'status'}>
              {t(props.termsFailed ? 'account.terms.error' : 'account.terms.loading')}
            </p>
          )}
          <label className="terms-consent">
            <input
              type="checkbox"
              name="terms_consent"
              checked={props.consent}
              onChange={(event) => props.onConsentChange(event.target.checked)}
              disabled={!props.terms}
            />
            <span>{t('account.terms.consent')}</span>
          </label>
        </fieldset>
      </div>
      {props.formError && <FieldError message={props.formError} />}
      <div className="auth-actions">
        <Button type="submit" block disabled={!ready} busy={props.submitting}>
          {t('auth.register.continue')}
        </Button>
      </div>
      <p className="auth-footer">
        {t('auth.register.haveAccount')} <Link to={ROUTES.LogIn}>{t('auth.register.login')}</Link>
      </p>
    </form>
  );
}
