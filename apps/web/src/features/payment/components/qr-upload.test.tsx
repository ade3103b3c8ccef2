/**
 * The drop area: active while a file is dragged over it, a text file refused as the wrong type
 * before any decoding, an image address from another site refused as a security problem, and the
 * decoder never loaded for either.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import '../../../shared/i18n/i18n.ts';

const decoder = vi.hoisted(() => ({ loaded: vi.fn() }));
vi.mock('../qr/decoder.ts', async (original) => {
  const real = await original<typeof import('../qr/decoder.ts')>();
  return {
    ...real,
    decodeQrImageFile: vi.fn(async () => {
      decoder.loaded();
      return [];
    }),
    decodeQrImageUrl: vi.fn(async () => {
      decoder.loaded();
      return [];
    }),
  };
});

const { QrUpload } = await import('./qr-upload.tsx');

function transfer(init: { files?: File[]; uri?: string }) {
  return {
    files: init.files ?? [],
    types: init.uri ? ['text/uri-list'] : ['Files'],
    getData: (type: string) => (type === 'text/uri-list' ? (init.uri ?? '') : ''),
    dropEffect: 'none',
  };
}

describe('QrUpload', () => {
  it('looks active while a file is dragged over it and refuses a text file as the wrong type', () => {
    const onRead = vi.fn();
    render(<QrUpload onRead={onRead} />);
    const area = screen.getByTestId('qr-drop-area');
    fireEvent.dragEnter(area, { dataTransfer: transfer({}) });
    expect(area.className).toContain('qr-drop--active');
    fireEvent.dragLeave(area, { dataTransfer: transfer({}), relatedTarget: document.body });
    expect(area.className).not.toContain('qr-drop--active');

    fireEvent.dragOver(area, { dataTransfer: transfer({}) });
    const text = new File(['ST00012|Name=x'], 'notes.txt', { type: 'text/plain' });
    fireEvent.drop(area, { dataTransfer: transfer({ files: [text] }) });
    expect(area.className).not.toContain('qr-drop--active');
    expect(screen.getByTestId('qr-upload-error').textContent).toBe(
      'Неверный тип файла. Загрузите изображение PNG или JPG',
    );
    expect(screen.queryByRole('img', { name: 'Выбранное изображение' })).toBeNull();
    expect(decoder.loaded).not.toHaveBeenCalled();
    expect(onRead).not.toHaveBeenCalled();
  });

  it('refuses an image dragged from another site as a security problem', () => {
    render(<QrUpload onRead={vi.fn()} />);
    const area = screen.getByTestId('qr-drop-area');
    fireEvent.drop(area, { dataTransfer: transfer({ uri: 'https://evil.example.com/qr.png' }) });
    expect(screen.getByTestId('qr-upload-error').textContent).toBe(
      'Изображение с другого сайта не принято из соображений безопасности',
    );
    expect(decoder.loaded).not.toHaveBeenCalled();
  });

  it('previews a PNG and says so when it holds no QR code', async () => {
    render(<QrUpload onRead={vi.fn()} />);
    const input = screen.getByLabelText(/Загрузите изображение QR-кода/) as HTMLInputElement;
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'blank.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [png] } });
    expect(screen.getByRole('img', { name: 'Выбранное изображение' })).toBeTruthy();
    expect((await screen.findByTestId('qr-upload-error')).textContent).toBe(
      'QR-код на изображении не найден. Попробуйте более чёткое фото',
    );
    expect(decoder.loaded).toHaveBeenCalledTimes(1);
  });
});
