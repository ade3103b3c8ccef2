/** Small shared pieces: the router (pathname and history), links, loading and errors, a reason form. */
import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiError, api } from './api.ts';
import { type TextKey, useT } from './i18n.tsx';

export function navigate(to: string): void {
  window.history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(() => window.location.pathname + window.location.search);
  useEffect(() => {
    const update = () => setPath(window.location.pathname + window.location.search);
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return path;
}

export function Link({ to, children, current }: { to: string; children: ReactNode; current?: boolean }) {
  return (
    <a
      href={to}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}

/** The screen's heading, focused when the screen opens so keyboard and screen reader users start there. */
export function Title({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

/** Loads on mount, again when `deps` change and on `reload()`; keeps the last error. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  const key = JSON.stringify(deps);
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again when the caller's deps (as key) or tick change
  useEffect(() => {
    let live = true;
    setError(null);
    latest.current().then(
      (value) => live && setData(value),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data, error, reload };
}

export function ErrorText({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error}
    </p>
  );
}

export function errorText(error: unknown): string {
  return error instanceof ApiError || error instanceof Error ? error.message : String(error);
}

/** A one-field form for an action that needs a reason (freeze, reject, settle...). */
export function ReasonForm({
  action,
  label,
  onSubmit,
  danger,
}: {
  action: TextKey;
  label?: TextKey;
  onSubmit(reason: string): Promise<void>;
  danger?: boolean;
}) {
  const t = useT();
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(reason);
      setReason('');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline" onSubmit={submit}>
      <label htmlFor={id}>{t(label ?? 'reason')}</label>
      <input id={id} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} />
      <button type="submit" disabled={busy} className={danger ? 'danger' : undefined}>
        {t(action)}
      </button>
      <ErrorText error={error} />
    </form>
  );
}

export function date(value: string | null | undefined, language: string): string {
  if (!value) return '—';
  return new Date(value).toLocaleString(language === 'en' ? 'en-GB' : 'ru-RU', { timeZone: 'Europe/Moscow' });
}

/**
 * A decision on one object: approve at once, or reject with a reason (`<path>/approve`,
 * `<path>/reject`). `onDone` reloads the list; an approval's error goes to `onError`.
 */
export function ApproveOrReject({
  path,
  rejectLabel,
  onDone,
  onError,
}: {
  path: string;
  rejectLabel?: TextKey;
  onDone(): void;
  onError(message: string | null): void;
}) {
  const t = useT();
  return (
    <div className="actions">
      <button
        type="button"
        onClick={async () => {
          onError(null);
          try {
            await api('POST', `${path}/approve`);
            onDone();
          } catch (e) {
            onError(errorText(e));
          }
        }}
      >
        {t('approve')}
      </button>
      <ReasonForm
        action="reject"
        label={rejectLabel}
        danger
        onSubmit={async (reason) => {
          await api('POST', `${path}/reject`, { reason });
          onDone();
        }}
      />
    </div>
  );
}
