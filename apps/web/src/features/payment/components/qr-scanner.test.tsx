/**
 * The scanner's own behaviour without a real camera: the body marker while it is open (and gone
 * after), the scanning line toggling every 1.5 s, the back camera asked for, and a clear message
 * for a refused permission and for a missing camera; the camera is released on close.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../shared/i18n/i18n.ts';

// The decoder (zxing-wasm) is not what these tests are about; it reads nothing here.
vi.mock('../qr/decoder.ts', () => ({
  loadQrReader: vi.fn(async () => ({})),
  decodeQrPixels: vi.fn(async () => []),
}));

const { QrScanner, SCAN_LINE_TOGGLE_MS } = await import('./qr-scanner.tsx');

function stubCamera(getUserMedia: () => Promise<MediaStream>) {
  const spy = vi.fn((_constraints: MediaStreamConstraints) => getUserMedia());
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: spy } });
  return spy;
}

const refusal = (name: string) => Promise.reject(Object.assign(new Error(name), { name }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('QrScanner', () => {
  it('marks the body while open, toggles the scanning line every 1.5 s, and unmarks on close', async () => {
    vi.useFakeTimers();
    const pending = new Promise<MediaStream>(() => undefined);
    const getUserMedia = stubCamera(() => pending);
    const { unmount } = render(<QrScanner onRead={vi.fn()} />);
    expect(document.body.classList.contains('scanner-active')).toBe(true);
    expect(getUserMedia.mock.calls[0]?.[0]).toMatchObject({
      video: { facingMode: { ideal: 'environment' } },
    });

    const line = screen.getByTestId('scan-line');
    expect(line.className).toBe('qr-scanner__line');
    await act(() => vi.advanceTimersByTimeAsync(SCAN_LINE_TOGGLE_MS - 1));
    expect(line.className).toBe('qr-scanner__line');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(line.className).toBe('qr-scanner__line qr-scanner__line--down');
    await act(() => vi.advanceTimersByTimeAsync(SCAN_LINE_TOGGLE_MS));
    expect(line.className).toBe('qr-scanner__line');

    unmount();
    expect(document.body.classList.contains('scanner-active')).toBe(false);
  });

  it('a refused permission says how to allow it and offers the upload', async () => {
    stubCamera(() => refusal('NotAllowedError'));
    const onProblem = vi.fn();
    render(<QrScanner onRead={vi.fn()} onProblem={onProblem} />);
    expect((await screen.findByTestId('camera-problem')).textContent).toBe(
      'Нет доступа к камере. Разрешите доступ в настройках браузера или загрузите изображение QR-кода.',
    );
    expect(onProblem).toHaveBeenCalledWith('denied');
  });

  it('no camera at all, or no camera API, is a clear message', async () => {
    stubCamera(() => refusal('NotFoundError'));
    const { unmount } = render(<QrScanner onRead={vi.fn()} />);
    expect((await screen.findByTestId('camera-problem')).textContent).toBe(
      'Камера не найдена. Загрузите изображение QR-кода.',
    );
    unmount();
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    render(<QrScanner onRead={vi.fn()} />);
    expect((await screen.findByTestId('camera-problem')).textContent).toBe(
      'Камера не найдена. Загрузите изображение QR-кода.',
    );
  });

  it('stops the camera when closed while it starts', async () => {
    const stop = vi.fn();
    let grant: (stream: MediaStream) => void = () => undefined;
    stubCamera(() => new Promise((resolve) => (grant = resolve)));
    const { unmount } = render(<QrScanner onRead={vi.fn()} />);
    unmount();
    await act(async () => grant({ getTracks: () => [{ stop }] } as unknown as MediaStream));
    expect(stop).toHaveBeenCalledTimes(1);
  });
});
