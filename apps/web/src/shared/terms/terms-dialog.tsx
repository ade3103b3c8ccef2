/**
 * A new version of the terms, shown once after it is published (docs/decisions/account.md#a-persons-account):
 * the documents and 'Принимаю'. 'Позже' closes it for this visit; until the person accepts, money calls
 * answer TERMS_NOT_ACCEPTED with the same request, shown where the money screen shows errors.
 */
import '../ui/pay-modal/pay-modal.css';
import './terms.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../api/auth-info.ts';
import { Button } from '../ui/button.tsx';
import { ModalFrame } from '../ui/pay-modal/modal-frame.tsx';
import { acceptTerms, useTerms } from './terms-api.ts';
import { TermsLinks } from './terms-links.tsx';

export function TermsDialog() {
  const { t } = useTranslation();
  const { data: user } = useAuthInfo();
  const { terms } = useTerms();
  const [later, setLater] = useState(false);
  const client = useQueryClient();
  const accept = useMutation({
    mutationFn: (version: string) => acceptTerms(version),
    onSuccess: () => client.invalidateQueries({ queryKey: ['auth-info'] }),
  });
  const open = !!user && !!terms && !user.terms.accepted && !later && !accept.isSuccess;
  return (
    <ModalFrame
      open={open}
      title={t('account.termsDialog.title')}
      closable={!accept.isPending}
      onClose={() => setLater(true)}
      testId="terms-dialog"
    >
      {terms && (
        <div className="pay-stage terms-stage">
          <p className="pay-stage__text">{t('account.termsDialog.text')}</p>
          <TermsLinks terms={terms} />
          {accept.isError && (
            <p className="field__error" role="alert">
              {accept.error.message}
            </p>
          )}
          <div className="terms-stage__actions">
            <Button variant="secondary" onClick={() => setLater(true)} disabled={accept.isPending}>
              {t('account.termsDialog.later')}
            </Button>
            <Button onClick={() => accept.mutate(terms.version)} busy={accept.isPending}>
              {t('account.termsDialog.accept')}
            </Button>
          </div>
        </div>
      )}
    </ModalFrame>
  );
}
