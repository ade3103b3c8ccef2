/**
 * A modal dialog for money flows (native <dialog>: focus stays inside, Escape closes). With
 * `closable` false the close icon is hidden and Escape does nothing (the waiting stage).
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../icons.tsx';

export interface ModalFrameProps {
  open: boolean;
  title: string;
  closable: boolean;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  /** When it changes (a new stage), focus moves to the stage's first field or button. */
  focusKey?: string;
}

export function ModalFrame({ open, title, closable, onClose, children, testId, focusKey }: ModalFrameProps) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The latest handlers for the dialog's own events.
  const latest = useRef({ closable, onClose });
  latest.current = { closable, onClose };

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    } else if (!open && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [open]);

  // Each stage takes the keyboard: the PIN can be typed at once, a result's action pressed with Enter;
  // while waiting (no controls) the dialog itself holds focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusKey is the trigger: a new stage was rendered
  useEffect(() => {
    const element = dialog.current;
    if (!open || !element) return;
    const target =
      element.querySelector<HTMLElement>(
        '.pay-stage input:not([disabled]), .pay-stage button:not([disabled])',
      ) ?? element;
    target.focus();
  }, [open, focusKey]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const onCancel = (event: Event) => {
      // Escape: the dialog would close itself; it closes only through onClose, and not while waiting.
      event.preventDefault();
      if (latest.current.closable) latest.current.onClose();
    };
    element.addEventListener('cancel', onCancel);
    return () => element.removeEventListener('cancel', onCancel);
  }, []);

  return (
    <dialog ref={dialog} className="pay-modal" aria-labelledby={titleId} data-testid={testId} tabIndex={-1}>
      {open && (
        <div className="pay-modal__panel">
          <div className="pay-modal__head">
            <h2 id={titleId} className="pay-modal__title">
              {title}
            </h2>
            {closable && (
              <button
                type="button"
                className="icon-button"
                onClick={onClose}
                aria-label={t('payModal.close')}
              >
                <CloseIcon />
              </button>
            )}
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
