/**
 * The QR image input (docs/product.md 'Payment page, desktop'; docs/product.md#validation-rules 'QR image'):
 * a file input inside a drop area that looks active while a file is dragged over it, a preview of the chosen
 * image, and its decoding. PNG and JPEG only; an image dragged from another site is refused.
 */
import { clsx } from 'clsx';
import { type ChangeEvent, type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeQrImageFile, decodeQrImageUrl, QrImageError } from '../qr/decoder.ts';
import { QR_IMAGE_ACCEPT, qrFileProblem, qrUrlProblem } from '../qr/image-checks.ts';
import type { QrRead } from '../qr/qr-read.ts';

type UploadState =
  | { step: 'idle' }
  | { step: 'reading' }
  | { step: 'error'; problem: 'wrong_type' | 'cross_origin' | 'unreadable' | 'not_found' | 'decoder' }
  | { step: 'read' };

const PROBLEM_TEXT = {
  wrong_type: 'payment.upload.wrongType',
  cross_origin: 'payment.upload.crossOrigin',
  unreadable: 'payment.upload.unreadable',
  not_found: 'payment.upload.notFound',
  decoder: 'payment.upload.decoderFailed',
} as const;

export interface QrUploadProps {
  onRead: (text: string) => void;
  /** A new image was chosen: the previous code's payment must go before this one is read. */
  onClear?: () => void;
  compact?: boolean;
}

export function QrUpload({ onRead, onClear, compact = false }: QrUploadProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const [preview, setPreview] = useState<{ url: string; name: string; owned: boolean } | null>(null);
  const [state, setState] = useState<UploadState>({ step: 'idle' });
  // Only the latest choice may report: an older, slower decode is ignored.
  const choice = useRef(0);
  const latestOnRead = useRef(onRead);
  latestOnRead.current = onRead;
  const latestOnClear = useRef(onClear);
  latestOnClear.current = onClear;

  // An object URL made for a preview is released when it is replaced or the area goes.
  useEffect(() => {
    if (!preview?.owned) return;
    const { url } = preview;
    return () => URL.revokeObjectURL(url);
  }, [preview]);

  async function decode(read: () => Promise<QrRead[]>) {
    const mine = ++choice.current;
    setState({ step: 'reading' });
    try {
      const reads = await read();
      if (mine !== choice.current) return;
      const first = reads[0];
      if (!first) {
        setState({ step: 'error', problem: 'not_found' });
        return;
      }
      setState({ step: 'read' });
      latestOnRead.current(first.text);
    } catch (error) {
      if (mine !== choice.current) return;
      if (error instanceof QrImageError) {
        setState({ step: 'error', problem: error.problem });
      } else {
        console.error('QR decoding failed', error);
        setState({ step: 'error', problem: 'decoder' });
      }
    }
  }

  function takeFile(file: File) {
    // Whatever this file turns out to be, the previous code's recipient is no longer what is paid.
    latestOnClear.current?.();
    if (qrFileProblem(file)) {
      choice.current++;
      setPreview(null);
      setState({ step: 'error', problem: 'wrong_type' });
      return;
    }
    setPreview({ url: URL.createObjectURL(file), name: file.name, owned: true });
    void decode(() => decodeQrImageFile(file));
  }

  function takeAddress(address: string) {
    latestOnClear.current?.();
    const problem = qrUrlProblem(address, window.location.origin);
    if (problem) {
      choice.current++;
      setPreview(null);
      setState({ step: 'error', problem });
      return;
    }
    setPreview({ url: address, name: address, owned: false });
    void decode(() => decodeQrImageUrl(address));
  }

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) takeFile(file);
    // The same file chosen again is read again.
    event.target.value = '';
  };

  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true);
  };
  const onDragLeave = (event: DragEvent) => {
    // Leaving for a child of the area is not leaving the area.
    if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files?.[0];
    if (file) {
      takeFile(file);
      return;
    }
    // An image dragged from a page arrives as its address.
    const address = (event.dataTransfer.getData('text/uri-list') || event.dataTransfer.getData('text/plain'))
      .split('\n')
      .find((line) => line.trim() && !line.startsWith('#'));
    if (address) takeAddress(address.trim());
  };

  const error = state.step === 'error' ? t(PROBLEM_TEXT[state.problem]) : null;
  return (
    <div className={clsx('qr-upload', compact && 'qr-upload--compact')}>
      <fieldset
        className={clsx('qr-drop', dragging && 'qr-drop--active', error && 'qr-drop--invalid')}
        data-testid="qr-drop-area"
        aria-label={t('payment.upload.area')}
        data-active={dragging || undefined}
        onDragEnter={onDragOver}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <input
          id={inputId}
          type="file"
          accept={QR_IMAGE_ACCEPT}
          className="qr-drop__input"
          onChange={onChange}
          aria-describedby={`${inputId}-extensions${error ? ` ${inputId}-error` : ''}`}
        />
        {preview ? (
          <img
            className="qr-drop__preview"
            src={preview.url}
            alt={t('payment.upload.preview')}
            // A file that is not a picture shows no broken image: the error below says what is wrong.
            onError={() => setPreview(null)}
          />
        ) : (
          <UploadIcon />
        )}
        <label htmlFor={inputId} className="qr-drop__label">
          <span className="qr-drop__title">{t('payment.upload.label')}</span>
          <span className="qr-drop__text">{t('payment.upload.drop')}</span>
        </label>
        <span id={`${inputId}-extensions`} className="qr-drop__extensions">
          {t('payment.upload.extensions')}
        </span>
        <span className="button button--secondary qr-drop__button" aria-hidden="true">
          {t(preview ? 'payment.upload.another' : 'payment.upload.choose')}
        </span>
      </fieldset>
      {state.step === 'reading' && (
        <p className="qr-upload__status" role="status">
          {t('payment.upload.reading')}
        </p>
      )}
      {error && (
        <p
          id={`${inputId}-error`}
          className="form-error qr-upload__error"
          role="alert"
          data-testid="qr-upload-error"
        >
          {error}
        </p>
      )}
    </div>
  );
}

function UploadIcon() {
  return (
    <svg className="qr-drop__icon" viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" fill="none">
      <rect x="6" y="6" width="14" height="14" rx="3" stroke="currentColor" strokeWidth="3" />
      <rect x="28" y="6" width="14" height="14" rx="3" stroke="currentColor" strokeWidth="3" />
      <rect x="6" y="28" width="14" height="14" rx="3" stroke="currentColor" strokeWidth="3" />
      <path d="M30 30h4v4h-4zM38 38h4v4h-4zM38 28v4M28 40h4" stroke="currentColor" strokeWidth="3" />
    </svg>
  );
}
