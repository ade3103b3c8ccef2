/**
 * The camera scanner (docs/product.md 'Payment page, mobile'): the back camera in a square view with
 * a square frame and a scanning line that toggles every 1.5 s; the body carries `scanner-active`
 * while it is open. Frames are drawn on a canvas (at most 1280x1280,
 * docs/product.md#business-constants-and-limits) and decoded with zxing-wasm; a decoded text is kept as the
 * QR address, and a code is accepted only when the four corners of its outline lie inside the frame. No
 * camera or no permission: a clear message.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeQrPixels, loadQrReader } from '../qr/decoder.ts';
import { fitWithin } from '../qr/image-checks.ts';
import { outlineInside, scanFrame } from '../qr/qr-read.ts';

export const SCAN_LINE_TOGGLE_MS = 1500;
export const SCAN_CANVAS = { width: 1280, height: 1280 } as const;
/** Share of the visible square the frame takes; the CSS draws the frame at the same share. */
export const FRAME_SHARE = 0.72;
const SCAN_EVERY_MS = 150;

export type CameraProblem = 'denied' | 'noCamera' | 'failed';

function cameraProblemOf(error: unknown): CameraProblem {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return 'noCamera';
  return 'failed';
}

/** `scanner-active` on <body> while a scanner is mounted. */
function useBodyMarker(className: string) {
  useEffect(() => {
    document.body.classList.add(className);
    return () => document.body.classList.remove(className);
  }, [className]);
}

export function QrScanner({
  onRead,
  onProblem,
}: {
  /** A code accepted inside the frame: its content text. */
  onRead: (text: string) => void;
  onProblem?: (problem: CameraProblem) => void;
}) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<'starting' | 'scanning' | CameraProblem>('starting');
  const [lineDown, setLineDown] = useState(false);
  // The last text decoded anywhere in the picture (the QR address), kept even outside the frame.
  const [address, setAddress] = useState<string | null>(null);
  const latest = useRef({ onRead, onProblem });
  latest.current = { onRead, onProblem };

  useBodyMarker('scanner-active');

  useEffect(() => {
    const timer = setInterval(() => setLineDown((down) => !down), SCAN_LINE_TOGGLE_MS);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });

    const fail = (problem: CameraProblem) => {
      if (stopped) return;
      setState(problem);
      latest.current.onProblem?.(problem);
    };

    const scan = async () => {
      const element = video.current;
      if (stopped || !element || !context) return;
      if (element.readyState >= 2 && element.videoWidth > 0) {
        const size = fitWithin(element.videoWidth, element.videoHeight, SCAN_CANVAS);
        canvas.width = size.width;
        canvas.height = size.height;
        context.drawImage(element, 0, 0, size.width, size.height);
        try {
          const reads = await decodeQrPixels(context.getImageData(0, 0, size.width, size.height));
          if (stopped) return;
          const frame = scanFrame(size.width, size.height, FRAME_SHARE);
          const first = reads[0];
          if (first) setAddress(first.text);
          const accepted = reads.find((read) => outlineInside(read.location, frame));
          if (accepted) {
            stopped = true;
            latest.current.onRead(accepted.text);
            return;
          }
        } catch (error) {
          console.error('QR decoding failed', error);
        }
      }
      if (!stopped) timer = setTimeout(scan, SCAN_EVERY_MS);
    };

    (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        fail('noCamera');
        return;
      }
      // The decoder loads while the person answers the permission prompt.
      void loadQrReader().catch(() => undefined);
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        });
      } catch (error) {
        fail(cameraProblemOf(error));
        return;
      }
      if (stopped || !video.current) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      video.current.srcObject = stream;
      try {
        await video.current.play();
      } catch {
        // Autoplay of a muted inline video is allowed; a refusal still shows frames once playing.
      }
      if (stopped) return;
      setState('scanning');
      void scan();
    })();

    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
      if (video.current) video.current.srcObject = null;
    };
  }, []);

  if (state === 'denied' || state === 'noCamera' || state === 'failed') {
    return (
      <p className="qr-scanner__problem" role="alert" data-testid="camera-problem">
        {t(`payment.scan.${state}`)}
      </p>
    );
  }

  return (
    <div className="qr-scanner" data-testid="qr-scanner" data-state={state}>
      <div className="qr-scanner__view">
        <video
          ref={video}
          className="qr-scanner__video"
          muted
          playsInline
          autoPlay
          aria-label={t('payment.scan.video')}
        />
        <div className="qr-scanner__frame" style={{ width: `${FRAME_SHARE * 100}%` }} aria-hidden="true">
          <span
            className={lineDown ? 'qr-scanner__line qr-scanner__line--down' : 'qr-scanner__line'}
            data-testid="scan-line"
          />
        </div>
        {state === 'starting' && <p className="qr-scanner__starting">{t('payment.scan.starting')}</p>}
      </div>
      <p className="qr-scanner__hint" role="status">
        {address ? t('payment.scan.outside') : t('payment.scan.hint')}
      </p>
    </div>
  );
}
