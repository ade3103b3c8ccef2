import { describe, expect, it } from 'vitest';
import i18n from './i18n.ts';
import { moneyFlowEn, moneyFlowRu } from './money-flow-texts.ts';

function leaves(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  return Object.entries(value as object).flatMap(([key, child]) =>
    leaves(child, prefix ? `${prefix}.${key}` : key),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('money flow texts', () => {
  it('have every key in both languages, not empty, with the same placeholders', () => {
    const ru = new Map(leaves(moneyFlowRu));
    const en = new Map(leaves(moneyFlowEn));
    expect([...en.keys()].sort()).toEqual([...ru.keys()].sort());
    for (const [key, text] of ru) {
      expect(text.trim(), key).not.toBe('');
      expect(en.get(key)?.trim(), key).not.toBe('');
      expect(placeholders(en.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('are registered, with each unavailable notice for its own action (docs/decisions/placeholders-and-defects.md#defects-are-fixed)', () => {
    expect(i18n.t('topUpPage.unavailable')).toBe(
      'Пополнение кошелька недоступно, пожалуйста, пройдите идентификацию.',
    );
    expect(i18n.t('withdrawalPage.unavailable')).toBe(
      'Вывод средств недоступен, пожалуйста, пройдите идентификацию.',
    );
    expect(i18n.t('withdrawalPage.success')).toBe('Заявка на вывод средств успешно создана!');
    expect(i18n.t('payModal.waitingText')).toBe('Не закрывайте страницу');
  });
});
