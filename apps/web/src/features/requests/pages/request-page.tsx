/**
 * 'Запросить' (docs/decisions/requests-and-schedules.md#requests-templates-repeat-and-scheduled-transfers):
 * an amount, a phone or none (a link anyone may pay) and a comment; the request made shows its link with
 * 'Поделиться' (the Web Share API where the browser has it) or 'Скопировать ссылку'. Below, the person's own
 * requests with their status and 'Отменить'.
 */
import '../../../shared/ui/pay-modal/money-flow.css';
import '../requests.css';
import type { AnswerOf } from '@e-wallet/contract';
import { amountForInput } from '@e-wallet/contract/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError, isErrorAnswer } from '../../../shared/api/api-error.ts';
import { useAccounts } from '../../../shared/api/wallet.ts';
import { formatDate } from '../../../shared/format/date.ts';
import { formatMoney } from '../../../shared/format/money.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { isMaskComplete, toE164 } from '../../../shared/phone/masks.ts';
import { useRecipientPhone } from '../../../shared/phone/own-country.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { AmountField, useAmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { PhoneField } from '../../../shared/ui/phone-field.tsx';
import { FieldError, TextField } from '../../../shared/ui/text-field.tsx';
import { cancelRequest, createRequest, requestsQuery } from '../api/requests.ts';
import { SplitForm } from './split-form.tsx';

type Created = AnswerOf<'requestCreate'>;

export function RequestPage() {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const account = accounts.data?.[0] ?? null;
  const amountField = useAmountField();
  const [phone, setPhone] = useRecipientPhone();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const [copied, setCopied] = useState(false);
  const outgoing = useQuery(requestsQuery('outgoing'));
  const [params] = useSearchParams();
  const splitAmount = params.get('split');
  const [mode, setMode] = useState<'request' | 'split'>(splitAmount !== null ? 'split' : 'request');

  const currency = account?.currency_code ?? 'RUB';
  const mask = phone.country.mask[phone.maskIndex] ?? phone.country.mask[0]!;
  const typedDigits = phone.digits.length > 0;
  const phoneComplete = isMaskComplete(phone.digits, mask);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = amountField.check(currency);
    if (!checked.ok) return;
    if (typedDigits && !phoneComplete) {
      setError(t('validation.phoneIncomplete'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await createRequest({
        amount: checked.amount,
        currency_code: currency,
        ...(phoneComplete ? { phone: toE164(phone.country.code, phone.digits) } : {}),
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
      if (isErrorAnswer(answer)) setError(answer.message);
      else {
        setCreated(answer);
        void queryClient.invalidateQueries({ queryKey: ['requests'] });
      }
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.answer ? failure.answer.message : t('common.networkError'),
      );
    } finally {
      setBusy(false);
    }
  }

  async function share(made: Created) {
    const text = t('requests.shareText', { amount: formatMoney(made.amount, made.currency_code, language) });
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: t('requests.shareTitle'), text, url: made.url });
        return;
      } catch {
        // Dismissed or refused: copying still works.
      }
    }
    await copy(made.url);
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="home-page money-page money-flow">
      <h1 className="home-page__title">{t('requests.title')}</h1>
      <fieldset className="toggle-group request-modes">
        <legend className="visually-hidden">{t('split.how')}</legend>
        <button
          type="button"
          className="toggle-group__option"
          aria-pressed={mode === 'request'}
          onClick={() => setMode('request')}
        >
          {t('requests.title')}
        </button>
        <button
          type="button"
          className="toggle-group__option"
          aria-pressed={mode === 'split'}
          onClick={() => setMode('split')}
        >
          {t('split.title')}
        </button>
      </fieldset>
      <section className="panel money-flow__panel" aria-labelledby="request-form-title">
        <h2 id="request-form-title" className="visually-hidden">
          {mode === 'split' ? t('split.title') : t('requests.title')}
        </h2>
        {mode === 'split' ? (
          <SplitForm
            initialAmount={splitAmount ? amountForInput(splitAmount, language) : ''}
            currency={currency}
          />
        ) : created ? (
          <div className="share-box" data-testid="request-created">
            <p className="money-flow__status" role="status">
              {t('requests.created')}: {formatMoney(created.amount, created.currency_code, language)}
            </p>
            <p className="share-box__url" data-testid="request-url">
              {created.url}
            </p>
            <p>{t('requests.expires', { date: formatDate(created.expires_at, language) })}</p>
            <Button type="button" block onClick={() => void share(created)}>
              {t('requests.share')}
            </Button>
            <Button type="button" variant="secondary" block onClick={() => void copy(created.url)}>
              {t('requests.copy')}
            </Button>
            {copied && <p role="status">{t('requests.copied')}</p>}
            <Button
              type="button"
              variant="link"
              onClick={() => {
                setCreated(null);
                setCopied(false);
                amountField.setValue('');
                setComment('');
              }}
            >
              {t('requests.another')}
            </Button>
          </div>
        ) : (
          <form className="money-flow__form" onSubmit={submit} noValidate>
            <AmountField
              {...amountField.props}
              currency={currency}
              hint={t('moneyFlow.accountFor', { currency })}
            />
            <PhoneField
              label={t('requests.phone')}
              value={phone}
              onChange={(next) => {
                setPhone(next);
                setError(null);
              }}
              language={language}
              hint={t('requests.phoneHint')}
            />
            <TextField
              label={t('requests.comment')}
              placeholder={t('requests.commentPlaceholder')}
              value={comment}
              maxLength={140}
              onChange={(event) => setComment(event.target.value)}
            />
            <FieldError message={error} />
            <Button type="submit" block busy={busy}>
              {t('requests.submit')}
            </Button>
          </form>
        )}
        <aside className="money-flow__aside">
          <p>{t('requests.text')}</p>
        </aside>
      </section>
      {outgoing.data && outgoing.data.results.length > 0 && (
        <section className="panel requests-panel" aria-labelledby="outgoing-requests-title">
          <h2 id="outgoing-requests-title" className="panel__title">
            {t('requests.outgoing')}
          </h2>
          <ul className="requests-list" data-testid="outgoing-requests">
            {outgoing.data.results.map((request) => (
              <li key={request.id} className="requests-list__item">
                <span className="requests-list__text">
                  <span className="requests-list__amount">
                    {formatMoney(request.amount, request.currency_code, language)}
                  </span>
                  {/* Money asked of someone comes from them. */}
                  <span>
                    {request.counterparty
                      ? t('requests.from', { name: named(request.counterparty) })
                      : t('requests.anyone')}
                  </span>
                  {request.comment && <span className="requests-list__comment">{request.comment}</span>}
                  <span className="requests-list__date" data-testid="outgoing-request-status">
                    {t(`requests.status.${request.status}`)}
                    {request.status === 'pending' &&
                      ` · ${t('requests.expires', { date: formatDate(request.expires_at, language) })}`}
                  </span>
                </span>
                {request.status === 'pending' && (
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={async () => {
                      await cancelRequest(request.id).catch(() => undefined);
                      await queryClient.invalidateQueries({ queryKey: ['requests'] });
                    }}
                  >
                    {t('requests.cancel')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

export default RequestPage;
