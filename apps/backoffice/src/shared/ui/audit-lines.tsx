/**
 * The audit read as sentences: "Оператор a@b заблокировал кошелёк: Петров Иван (+7 999 …)", with the
 * before and after laid out as named fields whose values are named too (roles, statuses, money, dates).
 */
import { formatAmountText } from '@e-wallet/contract/money';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat, useNames } from '../format/format.ts';

export interface AuditLine {
  id: string;
  at: string;
  operator_id: string | null;
  operator_email: string;
  action: string;
  object_type: string | null;
  object_id: string | null;
  user_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The person concerned and the operator acted on, when the list joins them. */
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  object_email?: string | null;
}

/** Which names group a field's values belong to. */
const VALUE_GROUPS: Record<string, string> = {
  frozen_by: 'frozen',
  status: 'status',
  level: 'level',
  role: 'role',
  pending_role: 'role',
  why: 'why',
  purpose: 'link',
  link: 'link',
  rule: 'rule',
};

function Details({ line }: { line: AuditLine }) {
  const { t } = useTranslation();
  const names = useNames();
  const format = useFormat();
  const value = (key: string, v: unknown): string => {
    if (v === null || v === undefined) return key === 'frozen_by' ? names('frozen', 'none') : '—';
    if (typeof v === 'boolean') return t(v ? 'names.yes' : 'names.no');
    // The line keeps the amount, not its currency: grouped as the app groups it, without a symbol.
    if (key === 'amount' && typeof v === 'string') return formatAmountText(v, format.language);
    if (key === 'locked_until' && typeof v === 'string') return format.dateTime(v);
    if (VALUE_GROUPS[key] && typeof v === 'string') return names(VALUE_GROUPS[key], v);
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  // A field with nothing in it, before or after, says nothing (the frozen state's null does); nor do
  // the ids of transfers and messages, which mean nothing to a reader (the sentence names the person).
  const keys = [...new Set([...Object.keys(line.before ?? {}), ...Object.keys(line.after ?? {})])].filter(
    (key) =>
      !key.endsWith('_id') && (key === 'frozen_by' || (line.before?.[key] ?? line.after?.[key]) != null),
  );
  if (keys.length === 0) return null;
  const both = line.before !== null && line.after !== null;
  return (
    <dl className="changes">
      {keys.map((key) => {
        const before = line.before?.[key];
        const after = line.after?.[key];
        const label = t(`fields.${key}`, { defaultValue: key });
        return (
          <div key={key}>
            <dt>{label}:</dt>{' '}
            <dd>
              {both && key in (line.before ?? {}) && key in (line.after ?? {}) ? (
                <>
                  <span className="was">{value(key, before)}</span> → {value(key, after)}
                </>
              ) : (
                value(key, key in (line.after ?? {}) ? after : before)
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** The object of a sentence: the person (a link to their card), the operator, or nothing. */
function useObject() {
  const format = useFormat();
  return (line: AuditLine) => {
    if (line.user_id && (line.last_name || line.phone))
      return `${[line.last_name, line.first_name].filter(Boolean).join(' ')} (${format.phone(line.phone)})`;
    if (line.object_type === 'operator') return line.object_email ?? '';
    return '';
  };
}

export function AuditLines({ lines }: { lines: AuditLine[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const objectOf = useObject();
  if (lines.length === 0) return <p>{t('audit.none')}</p>;
  return (
    <ol className="audit">
      {lines.map((line) => {
        const who = line.operator_email || t('audit.system');
        const object = objectOf(line);
        // Without an object the sentence ends where its object would start.
        const sentence = t(`actions.${line.action}`, {
          who,
          object,
          action: line.action,
          defaultValue: t('actions.other', { who, object, action: line.action }),
        }).replace(/[:\s]+$/, '');
        return (
          <li key={line.id}>
            <p className="sentence">
              <time dateTime={line.at}>{format.dateTime(line.at)}</time>{' '}
              {line.user_id ? <Link to={`/users/${line.user_id}`}>{sentence}</Link> : sentence}
            </p>
            <Details line={line} />
          </li>
        );
      })}
    </ol>
  );
}
