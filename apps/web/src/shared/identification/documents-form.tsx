/**
 * The documents of a verification reviewed by an operator (the server's KYC_PROVIDER=manual): the
 * verification's page is Settings with `?documents=<application id>`, where this form collects
 * the document data and sends it. The server checks every field again and answers which is wrong.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorAnswer } from '../api/api-error.ts';
import { callApi } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { SelectField } from '../ui/select-field.tsx';
import { FieldError, TextField } from '../ui/text-field.tsx';
import { MAX_PHOTOS, sendPhotos } from './document-photos.ts';

const TYPES = ['passport', 'inn', 'snils'] as const;
type DocumentType = (typeof TYPES)[number];

export interface DocumentsFormProps {
  applicationId: string;
  /** Called once the documents are accepted for review. */
  onSent: () => void;
}

export function DocumentsForm({ applicationId, onSent }: DocumentsFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const titleId = useId();
  const [type, setType] = useState<DocumentType>('passport');
  const [number, setNumber] = useState('');
  const [fullName, setFullName] = useState('');
  const [birthDate, setBirthDate] = useState('');
  const photosId = useId();
  const [photos, setPhotos] = useState<File[]>([]);
  // Photos already accepted by the server: a retry after a wrong field does not send them twice.
  const [photosSent, setPhotosSent] = useState(false);
  const send = useMutation({
    mutationFn: async () => {
      if (!photosSent && photos.length > 0) {
        await sendPhotos(applicationId, photos);
        setPhotosSent(true);
      }
      const answer = await callApi('submitIdentificationDocuments', {
        body: {
          application_id: applicationId,
          document_type: type,
          document_number: number.trim(),
          full_name: fullName.trim(),
          birth_date: birthDate,
        },
      });
      if (isErrorAnswer(answer)) throw new Error(answer.message);
      return answer;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['auth-info'] });
      onSent();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!send.isPending) send.mutate();
  };

  return (
    <form className="identification-documents" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h2 id={titleId} className="identification__title">
        {t('identification.documents.title')}
      </h2>
      <p className="identification__hint">{t('identification.documents.intro')}</p>
      <SelectField
        label={t('identification.documents.type')}
        value={type}
        onChange={setType}
        options={TYPES.map((value) => ({ value, label: t(`identification.documents.types.${value}`) }))}
      />
      <TextField
        label={t('identification.documents.number')}
        value={number}
        inputMode="numeric"
        autoComplete="off"
        maxLength={20}
        required
        onChange={(event) => setNumber(event.target.value)}
      />
      <TextField
        label={t('identification.documents.fullName')}
        value={fullName}
        autoComplete="name"
        maxLength={200}
        required
        onChange={(event) => setFullName(event.target.value)}
      />
      <TextField
        label={t('identification.documents.birthDate')}
        type="date"
        value={birthDate}
        autoComplete="bday"
        required
        onChange={(event) => setBirthDate(event.target.value)}
      />
      <div className="field">
        <label className="field__label" htmlFor={photosId}>
          {t('identification.documents.photos')}
        </label>
        <input
          id={photosId}
          className="field__input identification-documents__photos"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          disabled={photosSent}
          aria-describedby={`${photosId}-hint`}
          onChange={(event) => setPhotos(Array.from(event.target.files ?? []).slice(0, MAX_PHOTOS))}
        />
        <p id={`${photosId}-hint`} className="field__hint">
          {photosSent
            ? t('identification.documents.photosSent', { count: photos.length })
            : photos.length > 0
              ? t('identification.documents.photosChosen', { count: photos.length })
              : t('identification.documents.photosHint', { max: MAX_PHOTOS })}
        </p>
      </div>
      <FieldError message={send.error?.message ?? null} />
      <Button type="submit" block busy={send.isPending} disabled={send.isPending}>
        {t('identification.documents.send')}
      </Button>
    </form>
  );
}
