/** The merchant API's keys: made (the secret shown once), listed, revoked. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { makeKey, merchantKeysQuery, revokeKey } from '../api/merchants.ts';

export function KeysPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useQuery(merchantKeysQuery);
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['merchant', 'keys'] });
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('key_name') ?? '').trim();
    if (!name) return;
    const made = await makeKey(name);
    setSecret(made.key.secret);
    form.reset();
    await refresh();
  };
  return (
    <section
      className="panel merchant-panel"
      aria-labelledby="merchant-keys-title"
      data-testid="merchant-keys"
    >
      <h2 id="merchant-keys-title" className="panel__title">
        {t('merchants.keys')}
      </h2>
      {secret && (
        <div className="merchant-secret" role="status">
          <p>{t('merchants.keyShownOnce')}</p>
          <code data-testid="merchant-key-secret">{secret}</code>
        </div>
      )}
      <ul className="merchant-list">
        {keys.data?.results.length === 0 && <li>{t('merchants.noKeys')}</li>}
        {keys.data?.results.map((key) => (
          <li key={key.id} className="merchant-list__row">
            <span>{key.name}</span>
            <Button
              type="button"
              variant="secondary"
              onClick={async () => {
                await revokeKey(key.id);
                await refresh();
              }}
            >
              {t('merchants.revoke')}
            </Button>
          </li>
        ))}
      </ul>
      <form className="merchant-form merchant-form--inline" onSubmit={submit}>
        <TextField label={t('merchants.keyName')} name="key_name" maxLength={60} required />
        <Button type="submit">{t('merchants.makeKey')}</Button>
      </form>
    </section>
  );
}
