/**
 * One conversation beside the person's card: the messages oldest first (the operation a message was
 * written from, with its amount and status), a reply with saved answers in the operator's language,
 * and closing. Opening it marks the person's messages read (their read receipt).
 */
import './support.css';
import { OpsSupportReply, SUPPORT_SAVED_ANSWERS, type SupportMessage } from '@e-wallet/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { opsCall } from '../../shared/api/client.ts';
import type { User } from '../../shared/api/people.ts';
import { useAction } from '../../shared/api/queries.ts';
import { useFormat, useNames } from '../../shared/format/format.ts';
import { currentLanguage } from '../../shared/i18n/i18n.ts';
import { FieldError } from '../../shared/ui/field-error.tsx';
import { Badge, ErrorText, Facts, Title } from '../../shared/ui/ui.tsx';
import { useSupportEvents } from './use-support-events.ts';
import { WaitTime } from './wait-time.tsx';

type Message = z.infer<typeof SupportMessage>;
type Person = Pick<User, 'id' | 'first_name' | 'last_name' | 'phone' | 'email' | 'level'>;
interface ConversationAnswer {
  conversation: { id: string; user_id: string; status: 'open' | 'closed'; wait_seconds: number | null };
  results: Message[];
  next: string | null;
}

export function ConversationPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const names = useNames();
  const { id = '' } = useParams();
  useSupportEvents();
  const conversation = useQuery({
    queryKey: ['supportConversation', id],
    queryFn: () =>
      opsCall<ConversationAnswer>('supportConversation', { params: { id }, query: { limit: '100' } }),
  });
  const userId = conversation.data?.conversation.user_id;
  const card = useQuery({
    queryKey: ['user', userId],
    queryFn: () => opsCall<{ user: Person }>('user', { params: { id: userId ?? '' } }),
    enabled: !!userId,
  });
  const reply = useAction('supportReply');
  const close = useAction('supportClose');
  const form = useForm<z.infer<typeof OpsSupportReply>>({
    resolver: zodResolver(OpsSupportReply),
    defaultValues: { text: '' },
  });
  const send = form.handleSubmit(async (values) => {
    await reply.mutateAsync({ params: { id }, body: values });
    form.reset({ text: '' });
  });
  const language = currentLanguage();
  const data = conversation.data;
  const person = card.data?.user;
  return (
    <>
      <Title>
        {t('support.conversation')}
        {person ? `: ${person.last_name} ${person.first_name}` : ''}
      </Title>
      <p>
        <Link to="/support">{t('support.back')}</Link>
      </p>
      <ErrorText error={conversation.error} />
      {data && (
        <div className="support-layout">
          <section className="panel support-chat" aria-label={t('support.messages')}>
            <ol className="messages">
              {[...data.results].reverse().map((message) => (
                <li key={message.id} className={`message ${message.author}`}>
                  <p className="message-meta">
                    {message.author === 'person' ? t('support.fromPerson') : t('support.fromOperator')} ·{' '}
                    {format.dateTime(message.created_at)}
                    {message.author === 'operator' && message.read && <> · {t('support.readByPerson')}</>}
                  </p>
                  {message.operation && (
                    <p className="message-operation">
                      <Badge tone={message.operation.status === 'failed' ? 'danger' : 'warn'}>
                        {t(`support.operation.${message.operation.status}`, {
                          defaultValue: message.operation.status,
                        })}
                      </Badge>{' '}
                      {message.operation.description} ·{' '}
                      {format.money(message.operation.amount, message.operation.currency_code)} ·{' '}
                      {format.dateTime(message.operation.created_at)}
                    </p>
                  )}
                  {message.text && <p className="message-text">{message.text}</p>}
                  {message.images.map((src, n) => (
                    <a key={src.slice(-32)} href={src} target="_blank" rel="noreferrer">
                      <img className="message-image" src={src} alt={t('support.image', { n: n + 1 })} />
                    </a>
                  ))}
                </li>
              ))}
            </ol>
            {data.conversation.status === 'open' ? (
              <form className="reply" onSubmit={send}>
                <label htmlFor="saved-answer">{t('support.saved')}</label>
                <select
                  id="saved-answer"
                  value=""
                  onChange={(event) => {
                    const saved = SUPPORT_SAVED_ANSWERS.find((a) => a.id === event.target.value);
                    if (saved) form.setValue('text', saved[language], { shouldValidate: true });
                  }}
                >
                  <option value="">{t('support.savedPick')}</option>
                  {SUPPORT_SAVED_ANSWERS.map((saved) => (
                    <option key={saved.id} value={saved.id}>
                      {saved[language]}
                    </option>
                  ))}
                </select>
                <label htmlFor="reply-text">{t('support.reply')}</label>
                <textarea id="reply-text" rows={4} {...form.register('text')} />
                <FieldError error={form.formState.errors.text} label={t('support.reply')} />
                <ErrorText error={reply.error} />
                <div className="actions">
                  <button type="submit" disabled={form.formState.isSubmitting}>
                    {t('support.send')}
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    disabled={close.isPending}
                    onClick={() => void close.mutateAsync({ params: { id } })}
                  >
                    {t('support.close')}
                  </button>
                </div>
              </form>
            ) : (
              <p className="note">{t('support.closedNote')}</p>
            )}
          </section>
          <aside className="panel support-card" aria-label={t('support.card')}>
            <h2>{t('support.card')}</h2>
            {person ? (
              <Facts
                items={[
                  [
                    t('users.name'),
                    <Link
                      key="name"
                      to={`/users/${person.id}`}
                    >{`${person.last_name} ${person.first_name}`}</Link>,
                  ],
                  [t('users.phone'), format.phone(person.phone)],
                  [t('users.email'), person.email],
                  [t('users.level'), names('level', person.level)],
                  [t('support.waiting'), <WaitTime key="wait" seconds={data.conversation.wait_seconds} />],
                ]}
              />
            ) : (
              <p>{t('app.loading')}</p>
            )}
          </aside>
        </div>
      )}
    </>
  );
}
