import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountdown } from './use-countdown.ts';

describe('useCountdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts the seconds down to zero and stops there', () => {
    const { result } = renderHook(() => useCountdown());
    expect(result.current[0]).toBe(0);
    act(() => result.current[1](60));
    expect(result.current[0]).toBe(60);
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current[0]).toBe(59);
    act(() => vi.advanceTimersByTime(59_000));
    expect(result.current[0]).toBe(0);
    act(() => vi.advanceTimersByTime(5000));
    expect(result.current[0]).toBe(0);
  });

  it('starts again from a new value', () => {
    const { result } = renderHook(() => useCountdown());
    act(() => result.current[1](10));
    act(() => vi.advanceTimersByTime(4000));
    expect(result.current[0]).toBe(6);
    act(() => result.current[1](60));
    expect(result.current[0]).toBe(60);
  });
});
