import { describe, expect, it } from 'vitest';
import { readableCardMasks } from './transaction-display.ts';

describe('readableCardMasks', () => {
  it('groups a stored card mask as the app shows cards, anywhere in a text', () => {
    expect(readableCardMasks('411111******1111')).toBe('4111 11•• •••• 1111');
    expect(readableCardMasks('Вывод на карту 411111******1111')).toBe('Вывод на карту 4111 11•• •••• 1111');
  });

  it('leaves other texts alone', () => {
    expect(readableCardMasks('Перевод: Анна С.')).toBe('Перевод: Анна С.');
    expect(readableCardMasks('Заказ 1234567890')).toBe('Заказ 1234567890');
  });
});
