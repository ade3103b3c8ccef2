/**
 * The wallet carousel's parameters, as docs/product.md#business-constants-and-limits sets them: kept in one
 * place so the carousel and its tests read the same figures.
 */
import type useEmblaCarousel from 'embla-carousel-react';

export type EmblaOptions = NonNullable<Parameters<typeof useEmblaCarousel>[0]>;

export const CAROUSEL = {
  slidesPerView: 1.4,
  wideSlidesPerView: 2,
  wideFrom: 920,
  gap: 16,
  speedMs: 500,
  loop: false,
} as const;

/**
 * A slide's width for a number of slides per view, as CSS: the container less the gaps that fall
 * inside the view, divided by the slides per view (Swiper's formula, which the spec's numbers
 * come from).
 */
export function slideWidth(perView: number, gap: number): string {
  const gaps = Math.round((perView - 1) * gap * 100) / 100;
  return `calc((100% - ${gaps}px) / ${perView})`;
}

/**
 * Embla's duration is not in milliseconds: it is the length of its scroll animation in frames of
 * its physics, about 16-17 ms each at 60 Hz, so 500 ms is a duration of 30.
 */
export function emblaDuration(ms: number): number {
  return Math.round(ms / (1000 / 60));
}

export const emblaOptions: EmblaOptions = {
  loop: CAROUSEL.loop,
  align: 'start',
  containScroll: 'trimSnaps',
  duration: emblaDuration(CAROUSEL.speedMs),
};
