/** A form field's error in the contract's words (FIELD_REQUIRED when empty, else FIELD_INVALID), or a form's own message. */
import type { FieldError as RhfFieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

export function FieldError({
  error,
  label,
  id,
}: {
  error: RhfFieldError | undefined;
  label: string;
  id?: string;
}) {
  const { t } = useTranslation();
  if (!error) return null;
  const text =
    error.type === 'custom' && error.message
      ? error.message
      : t(/>=1 /.test(error.message ?? '') ? 'FIELD_REQUIRED' : 'FIELD_INVALID', {
          ns: 'errors',
          field: label,
        });
  return (
    <p className="error" role="alert" id={id}>
      {text}
    </p>
  );
}
