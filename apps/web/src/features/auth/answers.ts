/**
 * Reading the auth calls' answers: a `status: 'error'` answer's message is shown as the server
 * wrote it (docs/product.md#error-catalogue), under the input it is about when we can tell which one.
 */
import { FIELD_LABELS } from '@e-wallet/contract/field-labels';
import type { TFunction } from 'i18next';
import { ApiError, type ErrorAnswer, isErrorAnswer } from '../../shared/api/api-error.ts';

export type FormField = 'first_name' | 'last_name' | 'email' | 'phone' | 'confirm_code' | 'pin_code';

const FIELD_OF_CODE: Record<string, FormField> = {
  PHONE_TAKEN: 'phone',
  PHONE_NOT_REGISTERED: 'phone',
  SMS_LIMIT_PHONE: 'phone',
  EMAIL_TAKEN: 'email',
  CODE_INVALID: 'confirm_code',
  CODE_EXPIRED: 'confirm_code',
  CODE_TRIES_EXCEEDED: 'confirm_code',
};

/** The form field an error answer is about, or null for the form's error line. */
export function fieldOf(answer: ErrorAnswer, language: 'ru' | 'en'): FormField | null {
  const byCode = FIELD_OF_CODE[answer.code];
  if (byCode) return byCode;
  if (answer.code === 'FIELD_INVALID' || answer.code === 'FIELD_REQUIRED') {
    // The server names the field as a person reads it: «Фамилия».
    const fields: FormField[] = ['first_name', 'last_name', 'email', 'phone', 'confirm_code', 'pin_code'];
    return fields.find((field) => answer.message.includes(`${FIELD_LABELS[field]?.[language]}`)) ?? null;
  }
  return null;
}

/** The error answer of a settled call, or null when it succeeded. */
export function errorOf(answer: unknown): ErrorAnswer | null {
  return isErrorAnswer(answer) ? answer : null;
}

/** The message for a call that threw: the server's own words if it sent any. */
export function failureMessage(error: unknown, t: TFunction): string {
  if (error instanceof ApiError) {
    if (error.answer) return error.answer.message;
    if (error.status === 0) return t('common.networkError');
  }
  return t('common.unexpectedError');
}
