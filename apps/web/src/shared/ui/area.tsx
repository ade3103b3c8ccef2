/**
 * Loading, error and render-error states of one area of a page
 * (docs/decisions/placeholders-and-defects.md#defects-are-fixed): an area that fails shows a friendly message
 * with a retry, and the rest of the page stays usable.
 */
import './money-ui.css';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function AreaLoading({
  label,
  rows = 2,
  className,
}: {
  label?: string;
  rows?: number;
  /** A modifier shaping the placeholders like the content they stand for (no shift when it arrives). */
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={className ? `area-state area-state--loading ${className}` : 'area-state area-state--loading'}
      role="status"
      aria-live="polite"
    >
      <span className="visually-hidden">{label ?? t('area.loading')}</span>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <span key={index} className="skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}

export function AreaError({ message, onRetry }: { message?: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="area-state area-state--error" role="alert">
      <p className="area-state__text">{message ?? t('area.error')}</p>
      {onRetry && (
        <button type="button" className="button button--secondary area-state__retry" onClick={onRetry}>
          {t('area.retry')}
        </button>
      )}
    </div>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** Called before re-rendering after a retry, to refetch what the area shows. */
  onRetry?: () => void;
}

/** Catches a render error inside one area. */
export class AreaBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Render error') };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error)
      return (
        <AreaRenderError
          onRetry={() => {
            this.props.onRetry?.();
            this.setState({ error: null });
          }}
        />
      );
    return this.props.children;
  }
}

function AreaRenderError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return <AreaError message={t('area.renderError')} onRetry={onRetry} />;
}
