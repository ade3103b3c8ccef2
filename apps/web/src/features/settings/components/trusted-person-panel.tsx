/**
 * Settings → 'Доверенное лицо' (docs/decisions/antifraud.md#antifraud-and-the-trusted-person): name another
 * wallet user who approves operations from a threshold (and a first payment to a new payee, if chosen); see
 * whether they have accepted, and when a removal or a raise takes effect (48 hours), or that they left and
 * why. Below it, the people who named me, with 'Принять' for a new request and a way to step down.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { formatPhone } from '../../../shared/format/person.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { isMaskComplete, toE164 } from '../../../shared/phone/masks.ts';
import { useRecipientPhone } from '../../../shared/phone/own-country.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { PhoneField } from '../../../shared/ui/phone-field.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { type TrustedChange, trustedPersonQuery, useTrustedChange } from '../api/trusted-person.ts';

export function TrustedPersonPanel() {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const { data } = useQuery(trustedPersonQuery);
  const change = useTrustedChange();
  const [phone, setPhone] = useRecipientPhone();
  const [threshold, setThreshold] = useState('');
  const [newPayees, setNewPayees] = useState(false);
  const [phoneIncomplete, setPhoneIncomplete] = useState(false);
  const current = data?.trusted_person ?? null;
  const pendingFor = (c: (kind: TrustedChange) => boolean) => change.isPending && c(change.variables);
  const error = phoneIncomplete ? t('validation.phoneIncomplete') : (change.error?.message ?? null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const target = current
      ? current.phone
      : (() => {
          const mask = phone.country.mask[phone.maskIndex] ?? phone.country.mask[0]!;
          return isMaskComplete(phone.digits, mask) ? toE164(phone.country.code, phone.digits) : null;
        })();
    setPhoneIncomplete(!target);
    if (!target) return;
    change.mutate({
      kind: 'set',
      body: { phone: target, threshold: threshold.trim() || current?.threshold || '', new_payees: newPayees },
    });
  }

  return (
    <section
      id="trusted-person"
      className="panel settings-panel"
      aria-labelledby="trusted-title"
      data-testid="trusted-person"
    >
      <h2 id="trusted-title" className="panel__title">
        {t('trusted.title')}
      </h2>
      <p className="settings-panel__hint">{t('trusted.hint')}</p>
      {!current && data?.left && (
        <p className="trusted-person__left" role="status" data-testid="trusted-left">
          {t('trusted.left', {
            name: named(data.left.name),
            reason: t(`trusted.leftBecause.${data.left.reason}`),
          })}
        </p>
      )}
      {current && (
        <div className="trusted-person__current" data-testid="trusted-current">
          <p>{t('trusted.person', { name: named(current.name), phone: formatPhone(current.phone) })}</p>
          <p>
            {t(`trusted.status.${current.status}`)} · {formatMoney(current.threshold, 'RUB', language)}
          </p>
          {current.status === 'leaving' && current.effective_at && (
            <p>{t('trusted.effective', { date: formatDateTime(current.effective_at, language) })}</p>
          )}
          {current.pending && current.effective_at && (
            <p>
              {t('trusted.pendingChange', {
                amount: formatMoney(current.pending.threshold, 'RUB', language),
                date: formatDateTime(current.effective_at, language),
              })}
            </p>
          )}
        </div>
      )}
      <form className="trusted-person__form" onSubmit={submit} noValidate>
        {!current && (
          <PhoneField label={t('trusted.phone')} value={phone} onChange={setPhone} language={language} />
        )}
        <TextField
          label={t('trusted.threshold')}
          name="threshold"
          inputMode="decimal"
          value={threshold}
          placeholder={current?.threshold ?? '10000'}
          onChange={(event) => setThreshold(event.target.value)}
        />
        <label className="trusted-person__check">
          <input
            type="checkbox"
            checked={newPayees}
            onChange={(event) => setNewPayees(event.target.checked)}
          />
          {t('trusted.newPayees')}
        </label>
        <Button type="submit" busy={pendingFor((c) => c.kind === 'set')}>
          {t('trusted.save')}
        </Button>
      </form>
      {current && current.status !== 'leaving' && (
        <Button
          variant="ghost"
          busy={pendingFor((c) => c.kind === 'remove')}
          onClick={() => change.mutate({ kind: 'remove' })}
        >
          {t('trusted.remove')}
        </Button>
      )}
      {change.isSuccess && <p role="status">{t('trusted.saved')}</p>}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      {data && data.trusting.length > 0 && (
        <>
          <h3 className="trusted-person__subtitle">{t('trusted.trustingTitle')}</h3>
          <ul className="trusted-person__list">
            {data.trusting.map((person) => (
              <li key={person.id}>
                <span>
                  {t('trusted.person', { name: named(person.name), phone: formatPhone(person.phone) })}
                </span>
                <span> · {t(`trusted.status.${person.status}`)}</span>
                {person.status === 'pending' && (
                  <Button
                    variant="secondary"
                    busy={pendingFor((c) => c.kind === 'accept' && c.id === person.id)}
                    onClick={() => change.mutate({ kind: 'accept', id: person.id })}
                  >
                    {t('trusted.accept')}
                  </Button>
                )}
                <Button
                  variant="ghost"
                  // The name tells one row's button from another's; the visible words come first (axe).
                  aria-label={t('trusted.leaveLabel', {
                    action: person.status === 'pending' ? t('trusted.decline') : t('trusted.leave'),
                    name: named(person.name),
                  })}
                  busy={pendingFor((c) => c.kind === 'leave' && c.id === person.id)}
                  onClick={() => change.mutate({ kind: 'leave', id: person.id })}
                >
                  {person.status === 'pending' ? t('trusted.decline') : t('trusted.leave')}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
