import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left until an action may run again (the SMS resend cooldown): start(60) counts down to 0
 * once a second. The end time is kept, so a throttled background tab still ends on time.
 */
export function useCountdown() {
  const [endsAt, setEndsAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endsAt <= Date.now()) return;
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= endsAt) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [endsAt]);
  const start = useCallback((seconds: number) => {
    const at = Date.now();
    setNow(at);
    setEndsAt(at + Math.max(0, seconds) * 1000);
  }, []);
  const left = Math.max(0, Math.ceil((endsAt - now) / 1000));
  return [left, start] as const;
}
