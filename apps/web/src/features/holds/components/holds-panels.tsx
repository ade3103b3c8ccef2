/**
 * Held operations and approvals on screen (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): my
 * operations on hold with their reason, 'Подтвердить' (a fresh SMS code and the PIN) and 'Отменить'; what I
 * am asked to approve as someone's trusted person, with 'Одобрить' (my PIN) and 'Отклонить'. Shared by the
 * holds page and the home page; the live stream asks the lists again on every notification.
 */
import '../../../shared/ui/pay-modal/pay-modal.css';
import '../holds.css';
import { formatMoney } from '@e-wallet/contract/money';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../../../shared/api/auth-info.ts';
import { formatDateTime } from '../../../shared/format/date.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { OwnCodeStep, useOwnCodeStep } from '../../../shared/security/own-code-step.tsx';
import { Button } from '../../../shared/ui/button.tsx';
import { CodeInput } from '../../../shared/ui/code-input.tsx';
import { HoldReasons } from '../../../shared/ui/pay-modal/held-stage.tsx';
import { ModalFrame } from '../../../shared/ui/pay-modal/modal-frame.tsx';
import {
  type Approval,
  approvalsQuery,
  type Hold,
  holdsQuery,
  OPEN_HOLD,
  useDecision,
} from '../api/holds.ts';

function HoldFacts({ hold, person }: { hold: Hold | Approval; person?: string }) {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  return (
    <>
      <p className="hold-card__amount">{formatMoney(hold.amount, hold.currency_code, language)}</p>
      <p className="hold-card__payee">
        {person
          ? t('holds.approvalFrom', { person: named(person), payee: named(hold.payee) })
          : named(hold.payee)}
      </p>
      <p className="hold-card__label">{t('holds.reason')}</p>
      <HoldReasons reasons={hold.reason_list} />
      {OPEN_HOLD.has(hold.status) && (
        <p className="hold-card__until">
          {t('holds.until')} {formatDateTime(hold.expires_at, language)}
        </p>
      )}
    </>
  );
}

function DecisionError({ error }: { error: Error | null }) {
  return error ? (
    <p className="field__error" role="alert">
      {error.message}
    </p>
  ) : null;
}

/** My operations on hold, newest first; the open ones with their two buttons. */
export function HoldsPanel({
  focusId,
  openOnly = false,
}: {
  focusId?: string | null;
  /** Home: only what waits, and nothing at all when nothing does. */
  openOnly?: boolean;
}) {
  // The holds page's own heading names them; here the panel names the person's side of them.
  const titleKey = openOnly ? 'holds.title' : 'holds.mine';
  const { t } = useTranslation();
  const { data } = useQuery(holdsQuery);
  const cancel = useDecision();
  const [confirming, setConfirming] = useState<Hold | null>(null);
  // Cancelling returns the money at once and cannot be undone: asked once, inline, on the card.
  const [asking, setAsking] = useState<string | null>(null);
  const all = data?.results ?? [];
  const holds = openOnly ? all.filter((hold) => OPEN_HOLD.has(hold.status)) : all;

  if (openOnly && holds.length === 0 && !confirming) return null;
  return (
    <section className="panel holds-panel" aria-labelledby="holds-title" data-testid="holds">
      <h2 id="holds-title" className="panel__title">
        {t(titleKey)}
      </h2>
      {data && holds.length === 0 && <p className="holds-panel__empty">{t('holds.empty')}</p>}
      <ul className="holds-panel__list">
        {holds.map((hold) => (
          <li
            key={hold.id}
            className={`hold-card${hold.id === focusId ? ' hold-card--focus' : ''}`}
            data-testid="hold-card"
          >
            <p className={`hold-card__status hold-card__status--${hold.status}`}>
              {t(`holds.status.${hold.status}`)}
            </p>
            <HoldFacts hold={hold} />
            {OPEN_HOLD.has(hold.status) && (
              <div className="hold-card__actions">
                {hold.status === 'held' && (
                  <Button onClick={() => setConfirming(hold)}>{t('holds.confirm')}</Button>
                )}
                {asking !== hold.id && (
                  <Button variant="secondary" onClick={() => setAsking(hold.id)}>
                    {t('holds.cancel')}
                  </Button>
                )}
              </div>
            )}
            {asking === hold.id && OPEN_HOLD.has(hold.status) && (
              <CancelQuestion
                hold={hold}
                busy={cancel.isPending}
                onYes={() =>
                  cancel.mutate({ id: hold.id, decision: 'cancel' }, { onSettled: () => setAsking(null) })
                }
                onNo={() => setAsking(null)}
              />
            )}
          </li>
        ))}
      </ul>
      <DecisionError error={cancel.error} />
      {confirming && <ConfirmDialog hold={confirming} onClose={() => setConfirming(null)} />}
    </section>
  );
}

function CancelQuestion({
  hold,
  busy,
  onYes,
  onNo,
}: {
  hold: Hold;
  busy: boolean;
  onYes: () => void;
  onNo: () => void;
}) {
  const { t } = useTranslation();
  const amount = formatMoney(hold.amount, hold.currency_code, currentLanguage());
  return (
    <div className="hold-card__question" data-testid="hold-cancel-ask">
      <p>{t('holds.cancelAsk', { amount })}</p>
      <div className="hold-card__actions">
        <Button busy={busy} onClick={onYes}>
          {t('holds.cancelYes')}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={onNo} autoFocus>
          {t('holds.cancelNo')}
        </Button>
      </div>
    </div>
  );
}

/** 'Подтвердить': a fresh code to my own phone and my PIN (a thief with a session rarely has the phone). */
function ConfirmDialog({ hold, onClose }: { hold: Hold; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: user } = useAuthInfo();
  const confirm = useDecision();
  const step = useOwnCodeStep(confirm.reset);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (confirm.isPending || !step.ready) return;
    confirm.mutate(
      { id: hold.id, decision: 'confirm', body: { confirm_code: step.code, pin: step.pin } },
      { onSuccess: onClose, onError: step.clearPin },
    );
  }

  return (
    <ModalFrame
      open
      title={t('holds.confirmTitle')}
      closable={!confirm.isPending}
      onClose={onClose}
      testId="hold-confirm"
    >
      <form className="pay-stage hold-stage" onSubmit={submit} noValidate>
        <HoldFacts hold={hold} />
        <p className="hold-stage__warning">{t('holds.confirmText')}</p>
        <OwnCodeStep
          step={step}
          phone={user?.phone}
          confirms={{ hold: hold.id }}
          error={confirm.error?.message}
        />
        <div className="hold-stage__actions">
          <Button variant="secondary" onClick={onClose} disabled={confirm.isPending}>
            {t('holds.back')}
          </Button>
          <Button type="submit" disabled={!step.ready} busy={confirm.isPending}>
            {t('holds.confirm')}
          </Button>
        </div>
      </form>
    </ModalFrame>
  );
}

/** What I am asked to approve as a trusted person; nothing at all when there is nothing to decide. */
export function ApprovalsPanel({ hideWhenEmpty = false }: { hideWhenEmpty?: boolean }) {
  const { t } = useTranslation();
  const named = useName();
  const { data } = useQuery(approvalsQuery);
  const decline = useDecision();
  const [approving, setApproving] = useState<Approval | null>(null);
  // The card leaves the list once decided: what was done stays said in its place.
  const [done, setDone] = useState<string | null>(null);
  const open = (data?.results ?? []).filter((approval) => approval.status === 'awaiting_approval');
  if (hideWhenEmpty && open.length === 0 && done === null) return null;
  const said = (key: 'approved' | 'declined', approval: Approval) =>
    setDone(
      t(`holds.${key}`, {
        person: named(approval.person),
        amount: formatMoney(approval.amount, approval.currency_code, currentLanguage()),
      }),
    );

  return (
    <section className="panel holds-panel" aria-labelledby="approvals-title" data-testid="approvals">
      <h2 id="approvals-title" className="panel__title">
        {t('holds.approvalsTitle')}
      </h2>
      <p className="hold-done" role="status" data-testid="approval-done">
        {done}
      </p>
      {open.length === 0 && done === null && <p className="holds-panel__empty">{t('holds.empty')}</p>}
      <ul className="holds-panel__list">
        {open.map((approval) => (
          <li key={approval.id} className="hold-card" data-testid="approval-card">
            <HoldFacts hold={approval} person={approval.person} />
            <div className="hold-card__actions">
              <Button onClick={() => setApproving(approval)}>{t('holds.approve')}</Button>
              <Button
                variant="secondary"
                busy={decline.isPending && decline.variables.id === approval.id}
                onClick={() =>
                  decline.mutate(
                    { id: approval.id, decision: 'decline' },
                    { onSuccess: () => said('declined', approval) },
                  )
                }
              >
                {t('holds.decline')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <DecisionError error={decline.error} />
      {approving && (
        <ApproveDialog
          approval={approving}
          onClose={() => setApproving(null)}
          onApproved={() => said('approved', approving)}
        />
      )}
    </section>
  );
}

/** 'Одобрить': the trusted person's own PIN. */
function ApproveDialog({
  approval,
  onClose,
  onApproved,
}: {
  approval: Approval;
  onClose: () => void;
  onApproved: () => void;
}) {
  const { t } = useTranslation();
  const [pin, setPin] = useState('');
  const approve = useDecision();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (approve.isPending || pin.length < 4) return;
    approve.mutate(
      { id: approval.id, decision: 'approve', body: { pin } },
      {
        onSuccess: () => {
          onApproved();
          onClose();
        },
        onError: () => setPin(''),
      },
    );
  }

  return (
    <ModalFrame
      open
      title={t('holds.approveTitle')}
      closable={!approve.isPending}
      onClose={onClose}
      testId="approval-confirm"
    >
      <form className="pay-stage hold-stage" onSubmit={submit} noValidate>
        <HoldFacts hold={approval} person={approval.person} />
        <p className="hold-stage__warning">{t('holds.approveText')}</p>
        <CodeInput
          label={t('security.pinLabel')}
          digitLabel={(n, total) => t('security.pinDigit', { n, total })}
          value={pin}
          onChange={(value) => {
            setPin(value);
            approve.reset();
          }}
          error={approve.error?.message ?? null}
          secret
          autoFocus
        />
        <div className="hold-stage__actions">
          <Button variant="secondary" onClick={onClose} disabled={approve.isPending}>
            {t('holds.back')}
          </Button>
          <Button type="submit" disabled={pin.length < 4} busy={approve.isPending}>
            {t('holds.approve')}
          </Button>
        </div>
      </form>
    </ModalFrame>
  );
}
