/**
 * Settings → 'Закрыть кошелёк' (docs/decisions/account.md#a-persons-account): the person sees each balance
 * and what happens to it, what refuses closing now, the schedules and requests that end; gives the card for
 * the roubles, the PIN and a fresh SMS code; the server closes, and the app signs out onto the page saying
 * where the money went. The data export is offered first, and the people who named this person their
 * trusted person are named (docs/decisions/closing-and-export.md).
 */
import '../../../shared/ui/pay-modal/pay-modal.css';
import { formatMoney } from '@e-wallet/contract/money';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { OwnCodeStep, useOwnCodeStep } from '../../../shared/security/own-code-step.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { cardDigits, cardProblem, groupCard } from '../../../shared/ui/pay-modal/card-number.ts';
import { ModalFrame } from '../../../shared/ui/pay-modal/modal-frame.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { useClosePreview, useCloseWallet } from '../api/close-wallet.ts';
import { trustedPersonQuery } from '../api/trusted-person.ts';
import { MyDataButtons } from './my-data-panel.tsx';

export function CloseWalletPanel() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <section
      className="panel settings-panel"
      aria-labelledby="settings-close-title"
      data-testid="close-wallet"
    >
      <h2 id="settings-close-title" className="panel__title">
        {t('account.close.title')}
      </h2>
      <p className="settings-panel__hint">{t('account.close.hint')}</p>
      <Button variant="ghost" block className="settings-close__open" onClick={() => setOpen(true)}>
        {t('account.close.open')}
      </Button>
      {open && <CloseWalletDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function CloseWalletDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const { data: user } = useAuthInfo();
  const preview = useClosePreview(true);
  const trusting = useQuery(trustedPersonQuery).data?.trusting ?? [];
  const close = useCloseWallet();
  const [card, setCard] = useState('');
  const step = useOwnCodeStep(close.reset);
  const [cardError, setCardError] = useState(false);
  const data = preview.data;
  const blocked = !data || data.problems.length > 0;
  const cardBad = data?.needs_card ? cardProblem(cardDigits(card)) !== null : false;

  function submit(event: FormEvent) {
    event.preventDefault();
    setCardError(cardBad);
    if (cardBad || close.isPending) return;
    close.mutate(
      { pin: step.pin, confirm_code: step.code, ...(data?.needs_card ? { pan: cardDigits(card) } : {}) },
      { onError: step.clearPin },
    );
  }

  return (
    <ModalFrame
      open
      title={t('account.close.title')}
      closable={!close.isPending}
      onClose={onClose}
      testId="close-dialog"
    >
      <form className="pay-stage close-stage" onSubmit={submit} noValidate>
        {/* Before anything is given: after closing, no sign-in can fetch the data any more. */}
        <section className="close-stage__box" aria-labelledby="close-export-title" data-testid="close-export">
          <h3 id="close-export-title" className="close-stage__subtitle">
            {t('account.close.exportTitle')}
          </h3>
          <p className="settings-panel__hint">{t('account.close.exportText')}</p>
          <MyDataButtons />
        </section>
        {trusting.length > 0 && (
          <section
            className="close-stage__box close-stage__box--warning"
            aria-labelledby="close-trusting-title"
            data-testid="close-trusting"
          >
            <h3 id="close-trusting-title" className="close-stage__subtitle">
              {t('account.close.trustingTitle')}
            </h3>
            <p>
              {t('account.close.trusting', {
                names: trusting.map((person) => named(person.name)).join(', '),
              })}
            </p>
          </section>
        )}
        <h3 className="close-stage__subtitle">{t('account.close.balances')}</h3>
        {data ? (
          <ul className="close-stage__balances">
            {data.accounts.map((account) => (
              <li key={account.currency_code}>
                <span>{formatMoney(account.balance, account.currency_code, language)}</span>
                <span className="close-stage__outcome">{t(`account.close.outcome.${account.outcome}`)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p role="status">{t('common.loading')}</p>
        )}
        {data && data.active_schedules > 0 && (
          <p>{t('account.close.schedules', { count: data.active_schedules })}</p>
        )}
        {data && data.pending_requests > 0 && (
          <p>{t('account.close.requests', { count: data.pending_requests })}</p>
        )}
        {data?.problems.map((problem) => (
          <p key={problem.code} className="field__error" role="alert">
            {problem.message}
          </p>
        ))}
        {data && !blocked && (
          <>
            {data.needs_card && (
              <TextField
                label={t('account.close.card')}
                name="pan"
                inputMode="numeric"
                autoComplete="cc-number"
                placeholder="xxxx xxxx xxxx xxxx"
                maxLength={19}
                value={card}
                onChange={(event) => {
                  setCard(groupCard(cardDigits(event.target.value)));
                  setCardError(false);
                }}
                error={cardError ? t('account.close.cardInvalid') : null}
              />
            )}
            <OwnCodeStep
              step={step}
              phone={user?.phone}
              confirms="close_wallet"
              error={close.error?.message}
            />
          </>
        )}
        <div className="close-stage__actions">
          <Button variant="secondary" onClick={onClose} disabled={close.isPending}>
            {t('account.close.cancel')}
          </Button>
          <Button
            type="submit"
            className="close-stage__confirm"
            disabled={blocked || !step.ready}
            busy={close.isPending}
          >
            {t('account.close.confirm')}
          </Button>
        </div>
      </form>
    </ModalFrame>
  );
}
