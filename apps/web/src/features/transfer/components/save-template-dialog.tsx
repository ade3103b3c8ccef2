/**
 * 'Сохранить как шаблон' opens this dialog: the template's name (the recipient's by default) and its
 * amount (what is typed, or none) are shown and can be changed before anything is saved.
 */
import '../../../shared/security/security.css';
import { amountForInput, type CurrencyCode } from '@e-wallet/contract/money';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-error.ts';
import { useName } from '../../../shared/format/person-name.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { checkAmount } from '../../../shared/ui/pay-modal/amount.ts';
import { AmountField } from '../../../shared/ui/pay-modal/amount-field.tsx';
import { ModalFrame } from '../../../shared/ui/pay-modal/modal-frame.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { saveTemplate } from '../api/payees.ts';

export interface SaveTemplateDialogProps {
  onClose: () => void;
  recipient: { name: string; phone: string };
  /** An СБП payee's bank: saved as one, in roubles (docs/decisions/sbp.md#saved-payees-and-repeat). */
  bank?: { id: string; name: string } | null;
  currency: CurrencyCode;
  /** The wire amount typed in the form, if it reads. */
  amount: string | null;
}

export function SaveTemplateDialog({ onClose, recipient, bank, currency, amount }: SaveTemplateDialogProps) {
  const { t } = useTranslation();
  const named = useName();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const [name, setName] = useState(recipient.name);
  const [typed, setTyped] = useState(amount ? amountForInput(amount, language) : '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [amountError, setAmountError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: saveTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    const trimmed = name.trim();
    setNameError(trimmed ? null : t('templates.nameRequired'));
    // The amount is optional: an empty one saves a template without it.
    const checked = typed.trim() ? checkAmount(typed, currency) : null;
    setAmountError(checked && !checked.ok ? t(`moneyFlow.amountErrors.${checked.problem}`) : null);
    if (!trimmed || (checked && !checked.ok)) return;
    save.mutate({
      name: trimmed,
      phone: recipient.phone,
      currency_code: currency,
      ...(checked?.ok ? { amount: checked.amount } : {}),
      ...(bank ? { kind: 'sbp' as const, bank_id: bank.id } : {}),
    });
  }

  return (
    <ModalFrame
      open
      title={t('templates.save')}
      closable={!save.isPending}
      onClose={onClose}
      testId="template-dialog"
    >
      {save.isSuccess ? (
        <div className="pay-stage security-stage">
          <p className="security-stage__done" role="status">
            {t('templates.savedNamed', { name: name.trim() })}
          </p>
          <Button onClick={onClose}>{t('common.close')}</Button>
        </div>
      ) : (
        <form className="pay-stage security-stage" onSubmit={submit} noValidate>
          <p className="pay-stage__text">
            {t('templates.dialogText', { name: bank ? recipient.name : named(recipient.name) })}
          </p>
          <TextField
            label={t('templates.name')}
            value={name}
            maxLength={60}
            onChange={(event) => setName(event.target.value)}
            error={nameError}
          />
          <AmountField
            label={t('templates.amount')}
            value={typed}
            onChange={setTyped}
            currency={currency}
            error={amountError}
            hint={t('templates.amountHint')}
          />
          {save.isError && (
            <p className="field__error" role="alert">
              {save.error instanceof ApiError && save.error.answer
                ? save.error.answer.message
                : t('common.networkError')}
            </p>
          )}
          <div className="security-stage__actions">
            <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
              {t('security.cancel')}
            </Button>
            <Button type="submit" busy={save.isPending}>
              {t('templates.saveConfirm')}
            </Button>
          </div>
        </form>
      )}
    </ModalFrame>
  );
}
