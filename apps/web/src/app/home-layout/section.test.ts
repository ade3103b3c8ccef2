import { describe, expect, it } from 'vitest';
import { sectionOf } from './layout-header.tsx';

describe('the menu item a screen belongs to', () => {
  it("lights 'Перевод' for the transfer and its neighbours, 'Счета' for the accounts", () => {
    expect(sectionOf('/')).toBe('Home');
    for (const path of [
      '/wallet/save',
      '/wallet/request',
      '/wallet/schedules',
      '/pay/r/abcdefghijklmnopqrst',
    ])
      expect(sectionOf(path), path).toBe('WalletSave');
    for (const path of ['/wallet', '/wallet/exchange', '/wallet/topup', '/wallet/0b6e9c1a'])
      expect(sectionOf(path), path).toBe('Wallet');
    expect(sectionOf('/wallet/savings')).toBe('Savings');
    expect(sectionOf('/wallet/budgets')).toBe('Savings');
    expect(sectionOf('/history')).toBe('History');
    expect(sectionOf('/settings')).toBe('Settings');
    expect(sectionOf('/support')).toBe('Settings');
  });
});
