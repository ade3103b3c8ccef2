/**
 * The four-box code entry (docs/product.md#validation-rules): one digit per box, focus moves forward after a
 * digit, Backspace on an empty box moves back, pasting the whole code fills every box.
 * Tab never moves between the boxes (spec: Tab is blocked): only one box is in the tab order,
 * so Tab and Shift+Tab leave the code as a whole and the keyboard is never trapped.
 */
import { clsx } from 'clsx';
import { type ClipboardEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';

export interface CodeInputProps {
  value: string;
  onChange: (value: string) => void;
  /** The label of the whole code, such as 'Код из SMS'. */
  label: string;
  /** The label of one box; `{n}` and `{total}` are filled in. */
  digitLabel: (n: number, total: number) => string;
  length?: number;
  /** Masks the digits (PIN). */
  secret?: boolean;
  error?: string | null;
  autoFocus?: boolean;
  disabled?: boolean;
  id?: string;
  /** Called once when the last box is filled. */
  onComplete?: (value: string) => void;
}

const toCells = (value: string, length: number) =>
  Array.from({ length }, (_, index) => (/\d/.test(value[index] ?? '') ? value[index]! : ''));

export function CodeInput({
  value,
  onChange,
  label,
  digitLabel,
  length = 4,
  secret = false,
  error,
  autoFocus = false,
  disabled = false,
  id,
  onComplete,
}: CodeInputProps) {
  const autoId = useId();
  const baseId = id ?? autoId;
  const [cells, setCells] = useState(() => toCells(value, length));
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  // The latest cells, for focus handlers that run before the next render.
  const latest = useRef(cells);
  latest.current = cells;

  // The parent may reset the code (a new code was sent): follow it.
  useEffect(() => {
    if (value !== cells.join('')) setCells(toCells(value, length));
  }, [value, length, cells]);

  useEffect(() => {
    if (autoFocus) boxes.current[0]?.focus();
  }, [autoFocus]);

  const firstEmpty = cells.indexOf('');
  const tabStop = firstEmpty === -1 ? length - 1 : firstEmpty;

  function commit(next: string[], focusIndex?: number) {
    latest.current = next;
    setCells(next);
    const joined = next.join('');
    onChange(joined);
    if (focusIndex !== undefined) boxes.current[Math.min(Math.max(focusIndex, 0), length - 1)]?.focus();
    if (joined.length === length && next.every(Boolean)) onComplete?.(joined);
  }

  function fill(from: number, digits: string) {
    const next = [...cells];
    let index = from;
    for (const digit of digits) {
      if (index >= length) break;
      next[index] = digit;
      index += 1;
    }
    commit(next, index >= length ? length - 1 : index);
  }

  function handleInput(index: number, text: string) {
    const digits = text.replace(/\D/g, '');
    if (!digits) {
      if (text === '') commit(cells.map((cell, at) => (at === index ? '' : cell)));
      return;
    }
    // A box may receive several digits at once (autofill of the SMS code): spread them.
    if (digits.length >= length) fill(0, digits.slice(0, length));
    else if (digits.length > 1 && cells[index]) fill(index, digits.replace(cells[index]!, '') || digits);
    else fill(index, digits);
  }

  function handleKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Tab') {
      // Out of the code as a whole, never box to box.
      return;
    }
    if (/^\d$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // A typed digit replaces the box's digit even when it is the same one (no change event then).
      event.preventDefault();
      fill(index, event.key);
    } else if (event.key === 'Backspace' && !cells[index]) {
      event.preventDefault();
      boxes.current[index - 1]?.focus();
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      boxes.current[index - 1]?.focus();
    } else if (event.key === 'ArrowRight' && cells[index]) {
      event.preventDefault();
      boxes.current[index + 1]?.focus();
    }
  }

  function handlePaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    const digits = event.clipboardData.getData('text').replace(/\D/g, '');
    event.preventDefault();
    if (!digits) return;
    fill(digits.length >= length ? 0 : index, digits.slice(0, length));
  }

  function handleFocus(index: number) {
    // Boxes fill in order: a click past the first empty box lands on it.
    const empty = latest.current.indexOf('');
    if (empty !== -1 && index > empty) boxes.current[empty]?.focus();
    else boxes.current[index]?.select();
  }

  const errorId = `${baseId}-error`;
  return (
    <div className={clsx('code-input', error && 'code-input--invalid')}>
      <fieldset className="code-input__group">
        <legend className="code-input__label">{label}</legend>
        <div className="code-input__boxes">
          {cells.map((cell, index) => (
            <input
              // biome-ignore lint/suspicious/noArrayIndexKey: a box is its position
              key={index}
              ref={(element) => {
                boxes.current[index] = element;
              }}
              id={index === 0 ? baseId : `${baseId}-${index}`}
              className="code-input__box"
              type={secret ? 'password' : 'text'}
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete={index === 0 && !secret ? 'one-time-code' : 'off'}
              maxLength={index === 0 ? length : 2}
              value={cell}
              disabled={disabled}
              tabIndex={index === tabStop ? 0 : -1}
              aria-label={digitLabel(index + 1, length)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => handleInput(index, event.target.value)}
              onKeyDown={(event) => handleKeyDown(index, event)}
              onPaste={(event) => handlePaste(index, event)}
              onFocus={() => handleFocus(index)}
            />
          ))}
        </div>
      </fieldset>
      {error && (
        <p id={errorId} className="field__error code-input__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
