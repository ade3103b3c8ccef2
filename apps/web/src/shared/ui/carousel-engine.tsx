/**
 * Embla on the wallet carousel's viewport (shared/ui/wallet-carousel.tsx), loaded lazily once the
 * slides have been painted. Renders nothing; hands the carousel's API to `onReady` once started,
 * and `undefined` when it stops.
 */
import useEmblaCarousel, { type UseEmblaCarouselType } from 'embla-carousel-react';
import { useEffect } from 'react';
import type { EmblaOptions } from '../money/carousel-config.ts';

export type EmblaApi = NonNullable<UseEmblaCarouselType[1]>;

export interface CarouselEngineProps {
  viewport: HTMLElement;
  options: EmblaOptions;
  onReady: (embla: EmblaApi | undefined) => void;
}

export default function CarouselEngine({ viewport, options, onReady }: CarouselEngineProps) {
  const [setViewport, embla] = useEmblaCarousel(options);
  useEffect(() => {
    setViewport(viewport);
  }, [setViewport, viewport]);
  useEffect(() => {
    onReady(embla);
    return () => onReady(undefined);
  }, [embla, onReady]);
  return null;
}
