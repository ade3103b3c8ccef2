/**
 * The notification bell of the header and its dropdown titled 'Уведомления' with a close button
 * (docs/product.md 'Home layout'). Opening locks the page's scroll; closing, Escape, a click
 * outside or navigating unlock it. What the person saw is marked read when the dropdown opens.
 */
import '../notifications.css';
import { clsx } from 'clsx';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../shared/format/date.ts';
import { currentLanguage } from '../../../shared/i18n/i18n.ts';
import { aboutPath } from '../../../shared/routes.ts';
import { NotMeDeviceButton } from '../../../shared/security/security-buttons.tsx';
import { AreaError, AreaLoading } from '../../../shared/ui/area.tsx';
import { CloseIcon } from '../../../shared/ui/icons.tsx';
import { BellIcon } from '../../../shared/ui/money-icons.tsx';
import { useMarkRead, useNotifications } from '../api/notifications.ts';
import { useScrollLock } from '../use-scroll-lock.ts';

export interface NotificationBellProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function NotificationBell({ open, onOpenChange }: NotificationBellProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const query = useNotifications();
  const markRead = useMarkRead();
  const titleId = useId();
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  useScrollLock(open);

  const notifications = query.data?.pages.flatMap((page) => page.results) ?? [];
  const unread = query.data?.pages[0]?.unread ?? 0;

  const close = (returnFocus = true) => {
    onOpenChange(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  // Opened: focus the panel, mark the shown unread ones read (they stay marked in this view).
  const unreadIds = notifications.filter((item) => !item.is_read).map((item) => item.id);
  const unreadKey = unreadIds.join(',');
  const shownUnread = useRef<Set<string>>(new Set());
  useEffect(() => {
    if (!open) {
      shownUnread.current = new Set();
      return;
    }
    panelRef.current?.focus();
  }, [open]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the unread set changes while open
  useEffect(() => {
    if (!open || unreadIds.length === 0) return;
    for (const id of unreadIds) shownUnread.current.add(id);
    markRead.mutate(unreadIds.slice(0, 100));
  }, [open, unreadKey]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) close(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  });

  return (
    <div className="notifications">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button notifications__bell"
        aria-label={
          unread > 0
            ? `${t('notifications.open')}: ${t('notifications.unread', { count: unread })}`
            : t('notifications.open')
        }
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => (open ? close() : onOpenChange(true))}
        data-testid="notifications-bell"
      >
        <BellIcon />
        {unread > 0 && (
          <span className="notifications__badge" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          className="notifications__panel"
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
        >
          <div className="notifications__head">
            <h2 id={titleId} className="notifications__title">
              {t('notifications.title')}
            </h2>
            <button
              type="button"
              className="icon-button"
              aria-label={t('common.close')}
              onClick={() => close()}
              data-testid="notifications-close"
            >
              <CloseIcon />
            </button>
          </div>
          <div className="notifications__body">
            {query.isPending ? (
              <AreaLoading rows={3} />
            ) : query.isError && !query.data ? (
              <AreaError message={t('notifications.error')} onRetry={() => query.refetch()} />
            ) : notifications.length === 0 ? (
              <p className="notifications__empty">{t('notifications.empty')}</p>
            ) : (
              <ul className="notifications__list">
                {notifications.map((item) => {
                  const isNew = !item.is_read || shownUnread.current.has(item.id);
                  return (
                    <li key={item.id} className={clsx('notification', isNew && 'notification--unread')}>
                      {isNew && (
                        <span className="notification__marker">
                          <span className="visually-hidden">{t('notifications.unreadMarker')}</span>
                        </span>
                      )}
                      {/* Each notice opens what it is about: its operation, or the screen of its subject. */}
                      <Link
                        className="notification__link"
                        to={aboutPath(item.about)}
                        onClick={() => close(false)}
                      >
                        <time className="notification__date" dateTime={item.created_at}>
                          {formatDateTime(item.created_at, language)}
                        </time>
                        <span className="notification__message">{item.message}</span>
                      </Link>
                      {item.kind === 'new_device' && <NotMeDeviceButton />}
                    </li>
                  );
                })}
              </ul>
            )}
            {query.hasNextPage && (
              <button
                type="button"
                className="button button--ghost notifications__more"
                onClick={() => query.fetchNextPage()}
                disabled={query.isFetchingNextPage}
              >
                {t('notifications.more')}
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
