/**
 * The sandbox KYC provider's hosted page, as plain HTML: no script and no inline style (the CSP is
 * default-src 'self'); the stylesheet is /sandbox/assets/sandbox.css. Every value is escaped.
 */
import type { ApplicantField, ApplicantInput } from '../../providers/kyc/documents.ts';
import type { SandboxApplication } from '../../providers/kyc/sandbox.ts';
import { escapeHtml, sandboxPage } from '../sandbox-pages/index.ts';

const LEVEL_TITLES: Record<string, string> = {
  simplified: 'Упрощённая идентификация',
  full: 'Полная идентификация',
};

const FIELD_ERRORS: Record<ApplicantField, string> = {
  document_type: 'Выберите документ: паспорт, ИНН или СНИЛС',
  document_number:
    'Проверьте номер документа: паспорт — 10 цифр (серия и номер), ИНН — 12 цифр, СНИЛС — 11 цифр с контрольным числом',
  full_name: 'Укажите фамилию, имя и отчество (как в документе)',
  birth_date: 'Укажите дату рождения: от 14 до 120 лет',
};

const BADGE = 'Песочница — тестовый провайдер проверки';
const layout = (title: string, body: string) => sandboxPage(BADGE, title, body);

export function notFoundPage(): string {
  return layout(
    'Заявка не найдена',
    `<h1>Заявка не найдена</h1>
<p>Такой заявки на проверку нет.</p>
<p><a href="/settings">Вернуться в кошелёк</a></p>`,
  );
}

function option(value: string, label: string, selected: string | undefined): string {
  return `<option value="${value}"${selected === value ? ' selected' : ''}>${label}</option>`;
}

function fieldError(fields: ApplicantField[], field: ApplicantField): string {
  return fields.includes(field)
    ? `<p class="field-error" id="${field}-error">${escapeHtml(FIELD_ERRORS[field])}</p>`
    : '';
}

function described(fields: ApplicantField[], field: ApplicantField): string {
  return fields.includes(field) ? ` aria-invalid="true" aria-describedby="${field}-error"` : '';
}

/** The form of an open application, with the entered values and the wrong fields after a failed try. */
export function formPage(
  application: SandboxApplication,
  values: ApplicantInput & { reason?: string } = {},
  fields: ApplicantField[] = [],
  problem?: string,
): string {
  const v = (text: string | undefined) => escapeHtml(text ?? '');
  const errors =
    fields.length > 0 || problem
      ? `<div class="errors" role="alert">${escapeHtml(problem ?? 'Проверьте отмеченные поля')}</div>`
      : '';
  return layout(
    'Проверка личности',
    `<h1>Проверка личности</h1>
<p class="muted">${escapeHtml(LEVEL_TITLES[application.target_level] ?? application.target_level)}</p>
<p class="hint">Введите данные документа и подтвердите проверку, или отклоните её. Тестовые номера: ИНН 500100732259, СНИЛС 112-233-445 95, паспорт 4510 123456.</p>
<form method="post" action="/sandbox/kyc/${escapeHtml(application.id)}">
${errors}
<label for="document_type">Документ</label>
<select id="document_type" name="document_type"${described(fields, 'document_type')}>
${option('passport', 'Паспорт гражданина РФ', values.document_type)}
${option('inn', 'ИНН', values.document_type)}
${option('snils', 'СНИЛС', values.document_type)}
</select>
${fieldError(fields, 'document_type')}
<label for="document_number">Номер документа</label>
<input id="document_number" name="document_number" inputmode="numeric" autocomplete="off" maxlength="32" value="${v(values.document_number)}"${described(fields, 'document_number')}>
${fieldError(fields, 'document_number')}
<label for="full_name">Фамилия, имя и отчество</label>
<input id="full_name" name="full_name" autocomplete="name" maxlength="200" value="${v(values.full_name)}"${described(fields, 'full_name')}>
${fieldError(fields, 'full_name')}
<label for="birth_date">Дата рождения</label>
<input id="birth_date" name="birth_date" type="date" value="${v(values.birth_date)}"${described(fields, 'birth_date')}>
${fieldError(fields, 'birth_date')}
<label for="reason">Причина отказа (для отклонения, необязательно)</label>
<input id="reason" name="reason" maxlength="200" value="${v(values.reason)}">
<div class="actions">
<button type="submit" name="action" value="approve">Подтвердить</button>
<button type="submit" name="action" value="reject" class="secondary">Отклонить</button>
</div>
</form>`,
  );
}

/** An application that is no longer open. */
export function decidedPage(application: SandboxApplication): string {
  const outcome =
    application.status === 'approved'
      ? '<p class="result-ok">Проверка пройдена.</p>'
      : application.status === 'rejected'
        ? `<p class="result-bad">Проверка отклонена: ${escapeHtml(application.reason ?? '')}</p>`
        : application.status === 'canceled'
          ? `<p class="result-bad">Заявка закрыта: ${escapeHtml(application.reason ?? '')}</p>`
          : '<p>Заявка на рассмотрении.</p>';
  return layout(
    'Проверка личности',
    `<h1>Проверка личности</h1>
${outcome}
<p><a href="/settings">Вернуться в кошелёк</a></p>`,
  );
}
