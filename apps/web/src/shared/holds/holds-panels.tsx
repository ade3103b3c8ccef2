/**
 * Held operations and approvals on screen (docs/decisions.md section 21): my operations on hold with
 * their reason, 'Подтвердить' (a fresh SMS code and the PIN) and 'Отменить'; what I am asked to approve
 * as someone's trusted person, with 'Одобрить' (my PIN) and 'Отклонить'. Shared by the holds page and
 * the home page; the live stream asks the lists again on every notification.
 */
import '../ui/pay-modal/pay-modal.css';
import './holds.css';
import { formatMoney } from '@e-wallet/contract/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthInfo } from '../api/auth-info.ts';
import { formatDateTime } from '../format/date.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { useOwnCode } from '../security/own-code.ts';
import { Button } from '../ui/button.tsx';
import { CodeInput } from '../ui/code-input.tsx';
import { ModalFrame } from '../ui/pay-modal/modal-frame.tsx';
import {
  type Approval,
  approvalsQuery,
  approveHold,
  cancelHold,
  confirmHold,
  declineHold,
  type Hold,
  holdsQuery,
  OPEN_HOLD,
} from './holds-api.ts';

function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['holds'] });
    void client.invalidateQueries({ queryKey: ['approvals'] });
    void client.invalidateQueries({ queryKey: ['wallet'] });
  };
}

function HoldFacts({ hold, person }: { hold: Hold | Approval; person?: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <>
      <p className="hold-card__amount">{formatMoney(hold.amount, hold.currency_code, language)}</p>
      <p className="hold-card__payee">
        {person ? t('holds.approvalFrom', { person, payee: hold.payee }) : hold.payee}
      </p>
      <p className="hold-card__reason">
        <span className="hold-card__label">{t('holds.reason')}: </span>
        {hold.reason}
      </p>
      {OPEN_HOLD.has(hold.status) && (
        <p className="hold-card__until">
          {t('holds.until')} {formatDateTime(hold.expires_at, language)}
        </p>
      )}
    </>
  );
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
  const refresh = useRefresh();
  const [confirming, setConfirming] = useState<Hold | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const all = data?.results ?? [];
  const holds = openOnly ? all.filter((hold) => OPEN_HOLD.has(hold.status)) : all;

  async function cancel(hold: Hold) {
    setBusy(hold.id);
    setError(null);
    try {
      await cancelHold(hold.id);
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(null);
    }
  }

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
                <Button variant="secondary" busy={busy === hold.id} onClick={() => void cancel(hold)}>
                  {t('holds.cancel')}
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          hold={confirming}
          onClose={() => setConfirming(null)}
          onDone={() => {
            setConfirming(null);
            refresh();
          }}
        />
      )}
    </section>
  );
}

function ConfirmDialog({ hold, onClose, onDone }: { hold: Hold; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { data: user } = useAuthInfo();
  const [pin, setPin] = useState('');
  const [code, setCode] = useState('');
  const ownCode = useOwnCode(user?.phone);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'confirm' | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy('confirm');
    setError(null);
    try {
      await confirmHold(hold.id, { confirm_code: code, pin });
      onDone();
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(null);
    }
  }

  return (
    <ModalFrame
      open
      title={t('holds.confirmTitle')}
      closable={busy !== 'confirm'}
      onClose={onClose}
      testId="hold-confirm"
    >
      <form className="pay-stage hold-stage" onSubmit={submit} noValidate>
        <HoldFacts hold={hold} />
        <p className="hold-stage__warning">{t('holds.confirmText')}</p>
        <Button
          variant="secondary"
          onClick={() => void ownCode.send()}
          busy={ownCode.sending}
          disabled={ownCode.left > 0}
        >
          {t('holds.sendCode')}
        </Button>
        <p role="status">{ownCode.error ?? (ownCode.sent ? t('holds.codeSent') : null)}</p>
        <CodeInput
          label={t('holds.codeLabel')}
          digitLabel={(n, total) => t('holds.codeDigit', { n, total })}
          value={code}
          onChange={setCode}
        />
        <CodeInput
          label={t('holds.pinLabel')}
          digitLabel={(n, total) => t('holds.pinDigit', { n, total })}
          value={pin}
          onChange={setPin}
          secret
        />
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
        <div className="hold-stage__actions">
          <Button variant="secondary" onClick={onClose} disabled={busy === 'confirm'}>
            {t('holds.back')}
          </Button>
          <Button type="submit" disabled={pin.length < 4 || code.length < 4} busy={busy === 'confirm'}>
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
  const { data } = useQuery(approvalsQuery);
  const refresh = useRefresh();
  const [approving, setApproving] = useState<Approval | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const open = (data?.results ?? []).filter((approval) => approval.status === 'awaiting_approval');
  if (hideWhenEmpty && open.length === 0) return null;

  async function decline(approval: Approval) {
    setBusy(approval.id);
    setError(null);
    try {
      await declineHold(approval.id);
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="panel holds-panel" aria-labelledby="approvals-title" data-testid="approvals">
      <h2 id="approvals-title" className="panel__title">
        {t('holds.approvalsTitle')}
      </h2>
      {open.length === 0 && <p className="holds-panel__empty">{t('holds.empty')}</p>}
      <ul className="holds-panel__list">
        {open.map((approval) => (
          <li key={approval.id} className="hold-card" data-testid="approval-card">
            <HoldFacts hold={approval} person={approval.person} />
            <div className="hold-card__actions">
              <Button onClick={() => setApproving(approval)}>{t('holds.approve')}</Button>
              <Button variant="secondary" busy={busy === approval.id} onClick={() => void decline(approval)}>
                {t('holds.decline')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      {approving && (
        <ApproveDialog
          approval={approving}
          onClose={() => setApproving(null)}
          onDone={() => {
            setApproving(null);
            refresh();
          }}
        />
      )}
    </section>
  );
}

function ApproveDialog({
  approval,
  onClose,
  onDone,
}: {
  approval: Approval;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await approveHold(approval.id, { pin });
      onDone();
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  }

  return (
    <ModalFrame
      open
      title={t('holds.approveTitle')}
      closable={!busy}
      onClose={onClose}
      testId="approval-confirm"
    >
      <form className="pay-stage hold-stage" onSubmit={submit} noValidate>
        <HoldFacts hold={approval} person={approval.person} />
        <p className="hold-stage__warning">{t('holds.approveText')}</p>
        <CodeInput
          label={t('holds.pinLabel')}
          digitLabel={(n, total) => t('holds.pinDigit', { n, total })}
          value={pin}
          onChange={setPin}
          secret
          autoFocus
        />
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
        <div className="hold-stage__actions">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('holds.back')}
          </Button>
          <Button type="submit" disabled={pin.length < 4} busy={busy}>
            {t('holds.approve')}
          </Button>
        </div>
      </form>
    </ModalFrame>
  );
}
