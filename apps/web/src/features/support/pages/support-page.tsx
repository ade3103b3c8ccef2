/**
 * 'Поддержка' (docs/decisions/support.md#support-chat): the conversation with the operators, opened from
 * Settings, the profile panel, or a held, failed or refused operation (`?operation=<id>`, attached to
 * the message). Text and up to three images; answers arrive live; the person sees when an operator has
 * read their message.
 */
import '../support.css';
import { SUPPORT_IMAGES_MAX, SUPPORT_TEXT_MAX } from '@e-wallet/contract/support-limits';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api/api-error.ts';
import { formatDateTime } from '../../../shared/format/date.ts';
import { formatSignedMoney } from '../../../shared/format/money.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { Button } from '../../../shared/ui/button.tsx';
import { useMarkSupportRead, useSendSupportMessage, useSupportMessages } from '../api/support.ts';

const OPERATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function SupportPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [params, setParams] = useSearchParams();
  const asked = params.get('operation');
  const operationId = asked && OPERATION_ID.test(asked) ? asked : undefined;
  const messages = useSupportMessages();
  const send = useSendSupportMessage();
  const markRead = useMarkSupportRead();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const end = useRef<HTMLLIElement>(null);

  const pages = messages.data?.pages ?? [];
  const unread = pages[0]?.unread ?? 0;
  const list = pages.flatMap((page) => page.results).reverse();
  const newest = list.at(-1)?.id;

  // The person has read what is on the screen; the newest message stays in view.
  useEffect(() => {
    if (unread > 0 && !markRead.isPending) markRead.mutate();
  }, [unread, markRead]);
  useEffect(() => {
    if (newest) end.current?.scrollIntoView({ block: 'end' });
  }, [newest]);

  const submit = async () => {
    const body = text.trim();
    if (!body && files.length === 0) return;
    await send.mutateAsync({ text: body, operationId, files });
    setText('');
    setFiles([]);
    if (fileInput.current) fileInput.current.value = '';
    if (operationId) setParams({}, { replace: true });
  };

  const error =
    send.error instanceof ApiError ? send.error.message : send.error ? t('support.sendFailed') : null;
  return (
    <div className="home-page money-page support-page">
      <h1 className="home-page__title">{t('support.title')}</h1>
      <section className="panel support-panel" aria-label={t('support.title')}>
        {messages.hasNextPage && (
          <Button
            variant="ghost"
            onClick={() => void messages.fetchNextPage()}
            busy={messages.isFetchingNextPage}
          >
            {t('support.earlier')}
          </Button>
        )}
        {list.length === 0 && messages.isSuccess && <p className="support-empty">{t('support.empty')}</p>}
        <ol className="support-messages" aria-live="polite" data-testid="support-messages">
          {list.map((message) => (
            <li
              key={message.id}
              ref={message.id === newest ? end : undefined}
              className={`support-message support-message--${message.author}`}
            >
              <p className="support-message__who">
                {message.author === 'operator' ? t('support.operator') : t('support.you')}
              </p>
              {message.operation && (
                <p className="support-message__operation">
                  {t('support.about', {
                    description: message.operation.description,
                    amount: formatSignedMoney(
                      message.operation.amount,
                      message.operation.currency_code,
                      language,
                    ),
                  })}
                </p>
              )}
              {message.text && <p className="support-message__text">{message.text}</p>}
              {message.images.map((src, n) => (
                <img
                  key={src.slice(-24)}
                  className="support-message__image"
                  src={src}
                  alt={t('support.image', { n: n + 1 })}
                />
              ))}
              <p className="support-message__meta">
                {formatDateTime(message.created_at, language)}
                {message.author === 'person' && (
                  <> · {message.read ? t('support.read') : t('support.delivered')}</>
                )}
              </p>
            </li>
          ))}
        </ol>
        <form
          className="support-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit().catch(() => {});
          }}
        >
          {operationId && <p className="support-form__about">{t('support.attached')}</p>}
          <label htmlFor={inputId} className="support-form__label">
            {t('support.message')}
          </label>
          <textarea
            id={inputId}
            className="support-form__text"
            rows={3}
            maxLength={SUPPORT_TEXT_MAX}
            value={text}
            // A message is plain text on one line (the contract refuses control characters).
            onChange={(event) => setText(event.target.value.replace(/[\r\n\t]+/g, ' '))}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                void submit().catch(() => {});
              }
            }}
          />
          <div className="support-form__row">
            <label className="button button--secondary support-form__attach">
              {t('support.attach', { max: SUPPORT_IMAGES_MAX })}
              <input
                ref={fileInput}
                className="visually-hidden"
                type="file"
                accept="image/jpeg,image/png,image/webp"
                multiple
                onChange={(event) => setFiles([...(event.target.files ?? [])].slice(0, SUPPORT_IMAGES_MAX))}
              />
            </label>
            {files.length > 0 && (
              <span className="support-form__files">{t('support.files', { count: files.length })}</span>
            )}
            <Button type="submit" busy={send.isPending} data-testid="support-send">
              {t('support.send')}
            </Button>
          </div>
          {error && (
            <p className="support-form__error" role="alert">
              {error}
            </p>
          )}
        </form>
      </section>
    </div>
  );
}
export default SupportPage;
