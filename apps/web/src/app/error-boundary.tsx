/**
 * A render error in a route area shows a friendly message with a retry, never a blank area
 * (docs/decisions/placeholders-and-defects.md#defects-are-fixed). Layouts wrap their page in it, keyed by the
 * path, so navigating away also clears the error; the layout around it stays usable.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../shared/ui/button.tsx';

interface State {
  error: unknown;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('Render error') };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <RouteError onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}

export function RouteError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="route-error" role="alert">
      <h1 className="route-error__title">{t('errorBoundary.title')}</h1>
      <p className="route-error__text">{t('errorBoundary.text')}</p>
      <div className="route-error__actions">
        <Button onClick={onRetry}>{t('errorBoundary.retry')}</Button>
        <a href="/">{t('errorBoundary.home')}</a>
      </div>
    </section>
  );
}
