/**
 * The wallet carousel (docs/product.md#business-constants-and-limits): the user's accounts with currency
 * symbols and balances, laid out by shared/money/carousel-config.ts.
 * Slides link to their account page, or, with `onSelect`, choose the account a page shows.
 */
import './money-ui.css';
import { clsx } from 'clsx';
import { type CSSProperties, lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { WalletAccount } from '../api/wallet.ts';
import { formatMoney } from '../format/money.ts';
import { currentLanguage } from '../i18n/i18n.ts';
import { CAROUSEL, emblaOptions, slideWidth } from '../money/carousel-config.ts';
import { pathTo } from '../routes.ts';
import type { EmblaApi } from './carousel-engine.tsx';
import { CurrencyBadge } from './currency-badge.tsx';
import { ChevronLeftIcon, ChevronRightIcon, PlusIcon } from './money-icons.tsx';

export interface WalletCarouselProps {
  accounts: WalletAccount[];
  /** With a handler the slides are buttons choosing an account; without, links to the account page. */
  onSelect?: (account: WalletAccount) => void;
  selectedId?: string | null;
  label?: string;
  /** A last slide linking to the accounts page, to open an account in another currency. */
  newAccountSlide?: boolean;
}

/**
 * Whether `slides` overflow the view at this window width (1.4 per view, 2 from 920 px), as Embla
 * will find once it has measured: the arrows then show from the first paint instead of appearing a
 * moment later and pushing the page below them down (a layout shift).
 */
function overflowsAtStart(slides: number): boolean {
  const wide =
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia(`(min-width: ${CAROUSEL.wideFrom}px)`).matches;
  return slides > (wide ? CAROUSEL.wideSlidesPerView : CAROUSEL.slidesPerView);
}

const sizes = {
  '--slide-width': slideWidth(CAROUSEL.slidesPerView, CAROUSEL.gap),
  '--slide-width-wide': slideWidth(CAROUSEL.wideSlidesPerView, CAROUSEL.gap),
  '--slide-gap': `${CAROUSEL.gap}px`,
} as CSSProperties;

/** Embla (the carousel's scrolling) in a chunk of its own: see `useAfterPaint`. */
const CarouselEngine = lazy(() => import('./carousel-engine.tsx'));

/**
 * Whether the browser has painted since the component mounted. The carousel's slides are plain
 * markup that needs no script to show; Embla, which scrolls them, is loaded and started only after
 * that paint. Started in the commit, Embla measures the viewport and every slide and so makes the
 * browser lay out the whole page on the spot, a second time in the same long task (on a slow
 * phone 60 ms or more while the accounts arrive); after the paint the layout is done already and
 * Embla starts in a short task of its own. Its code (7 KiB gzip) is then off the first screen's
 * path too. Until it starts the slides sit where Embla leaves them (the first at the start), so
 * nothing moves.
 */
function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer = 0;
    // The frame callback runs just before the paint; the timer after it.
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

export function WalletCarousel({
  accounts,
  onSelect,
  selectedId,
  label,
  newAccountSlide,
}: WalletCarouselProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const painted = useAfterPaint();
  const [viewport, setViewport] = useState<HTMLDivElement | null>(null);
  const [embla, setEmbla] = useState<EmblaApi>();
  const [canPrev, setCanPrev] = useState(false);
  const [canNext, setCanNext] = useState(() => overflowsAtStart(accounts.length + (newAccountSlide ? 1 : 0)));

  const update = useCallback(() => {
    if (!embla) return;
    setCanPrev(embla.canScrollPrev());
    setCanNext(embla.canScrollNext());
  }, [embla]);

  useEffect(() => {
    if (!embla) return;
    update();
    embla.on('select', update).on('reInit', update).on('resize', update);
    return () => {
      embla.off('select', update).off('reInit', update).off('resize', update);
    };
  }, [embla, update]);

  // Keyboard focus on a slide out of view brings it into view.
  const focusSlide = (index: number) => {
    if (embla && !embla.slidesInView().includes(index)) embla.scrollTo(index);
  };

  return (
    <section
      className="wallet-carousel"
      aria-roledescription="carousel"
      aria-label={label ?? t('accounts.carousel')}
    >
      {painted && viewport && (
        <Suspense fallback={null}>
          <CarouselEngine viewport={viewport} options={emblaOptions} onReady={setEmbla} />
        </Suspense>
      )}
      <div className="wallet-carousel__viewport" ref={setViewport} style={sizes}>
        <ul className="wallet-carousel__track">
          {accounts.map((account, index) => {
            const money = formatMoney(account.balance, account.currency_code, language);
            const body = (
              <>
                <span className="account-card__top">
                  <CurrencyBadge currency={account.currency_code} size={40} />
                  <span className="account-card__currency">{account.currency_code}</span>
                </span>
                <span className="account-card__label">{t('accounts.balance')}</span>
                <span className="account-card__balance" data-testid="account-balance">
                  {money}
                </span>
              </>
            );
            const className = clsx(
              'account-card',
              `account-card--${account.currency_code.toLowerCase()}`,
              onSelect && selectedId === account.id && 'account-card--selected',
            );
            return (
              <li
                key={account.id}
                className="wallet-carousel__slide"
                aria-roledescription="slide"
                aria-label={t('accounts.slide', { index: index + 1, total: accounts.length })}
                data-currency={account.currency_code}
              >
                {onSelect ? (
                  <button
                    type="button"
                    className={className}
                    aria-pressed={selectedId === account.id}
                    onClick={() => onSelect(account)}
                    onFocus={() => focusSlide(index)}
                  >
                    <span className="visually-hidden">
                      {t('accounts.select', { currency: account.currency_code })}.{' '}
                    </span>
                    {body}
                  </button>
                ) : (
                  <Link
                    to={pathTo('WalletId', { id: account.id })}
                    className={className}
                    onFocus={() => focusSlide(index)}
                  >
                    <span className="visually-hidden">
                      {t('accounts.open', { currency: account.currency_code })}.{' '}
                    </span>
                    {body}
                  </Link>
                )}
              </li>
            );
          })}
          {newAccountSlide && (
            <li className="wallet-carousel__slide" aria-roledescription="slide">
              <Link
                to={pathTo('Wallet')}
                className="account-card account-card--new"
                onFocus={() => focusSlide(accounts.length)}
              >
                <span className="account-card__plus" aria-hidden="true">
                  <PlusIcon />
                </span>
                <span className="account-card__new-title">{t('wallet.create.title')}</span>
                <span className="account-card__new-text">{t('accounts.newText')}</span>
              </Link>
            </li>
          )}
        </ul>
      </div>
      {(canPrev || canNext) && (
        <div className="wallet-carousel__controls">
          <button
            type="button"
            className="icon-button wallet-carousel__arrow"
            onClick={() => embla?.scrollPrev()}
            disabled={!canPrev}
            aria-label={t('accounts.previous')}
          >
            <ChevronLeftIcon />
          </button>
          <button
            type="button"
            className="icon-button wallet-carousel__arrow"
            onClick={() => embla?.scrollNext()}
            disabled={!canNext}
            aria-label={t('accounts.next')}
          >
            <ChevronRightIcon />
          </button>
        </div>
      )}
    </section>
  );
}
