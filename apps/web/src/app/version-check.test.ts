import { describe, expect, it, vi } from 'vitest';
import { checkVersion, RELOAD_MARKER_KEY, type VersionCheckEnvironment } from './version-check.ts';

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

function environment(answer: () => Promise<Response>, unregister: () => Promise<boolean> = async () => true) {
  const registrations = [{ unregister: vi.fn(unregister) }, { unregister: vi.fn(unregister) }];
  const env = {
    fetch: vi.fn((_url: string, _init: RequestInit) => answer()),
    serviceWorker: {
      getRegistrations: vi.fn(async () => registrations as unknown as ServiceWorkerRegistration[]),
    },
    reload: vi.fn(),
    storage: memoryStorage(),
    now: () => 1_700_000_000_000,
    log: vi.fn(),
  } satisfies VersionCheckEnvironment;
  return { env, registrations };
}

const version = (value: string) => async () => Response.json({ version: value });

describe('start-up version check', () => {
  it('asks for /version.json with a timestamp and the no-cache headers', async () => {
    const { env } = environment(version('0.0.1'));
    await checkVersion('0.0.1', env);
    expect(env.fetch).toHaveBeenCalledTimes(1);
    const [url, init] = env.fetch.mock.calls[0]!;
    expect(url).toBe('/version.json?1700000000000');
    expect(init.headers).toEqual({ 'Cache-Control': 'no-cache', Pragma: 'no-cache', Expires: '0' });
  });

  it('continues when the server runs the same version: nothing unregistered, no reload', async () => {
    const { env, registrations } = environment(version('0.0.1'));
    env.storage.setItem(RELOAD_MARKER_KEY, '0.0.0');
    await expect(checkVersion('0.0.1', env)).resolves.toBe('current');
    expect(env.serviceWorker.getRegistrations).not.toHaveBeenCalled();
    expect(registrations[0]!.unregister).not.toHaveBeenCalled();
    expect(env.reload).not.toHaveBeenCalled();
    expect(env.storage.values.has(RELOAD_MARKER_KEY)).toBe(false);
  });

  it('on another version unregisters every service worker, then reloads', async () => {
    const { env, registrations } = environment(version('0.0.2'));
    const order: string[] = [];
    registrations[1]!.unregister.mockImplementation(async () => {
      order.push('unregister');
      return true;
    });
    env.reload.mockImplementation(() => void order.push('reload'));
    await expect(checkVersion('0.0.1', env)).resolves.toBe('reloading');
    expect(registrations[0]!.unregister).toHaveBeenCalledTimes(1);
    expect(registrations[1]!.unregister).toHaveBeenCalledTimes(1);
    expect(order).toEqual(['unregister', 'reload']);
    expect(env.storage.getItem(RELOAD_MARKER_KEY)).toBe('0.0.2');
  });

  it('reloads also when unregistering fails, and logs it', async () => {
    const { env } = environment(version('0.0.2'), async () => {
      throw new Error('cannot unregister');
    });
    await expect(checkVersion('0.0.1', env)).resolves.toBe('reloading');
    expect(env.reload).toHaveBeenCalledTimes(1);
    expect(env.log).toHaveBeenCalledWith(expect.stringContaining('reloading anyway'), expect.any(Error));
  });

  it('reloads also when listing the registrations fails', async () => {
    const { env } = environment(version('0.0.2'));
    env.serviceWorker.getRegistrations.mockRejectedValue(new Error('SecurityError'));
    await expect(checkVersion('0.0.1', env)).resolves.toBe('reloading');
    expect(env.reload).toHaveBeenCalledTimes(1);
  });

  it('a failed check (network error, HTTP error, bad JSON) is logged and start-up continues', async () => {
    const answers = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      async () => new Response('oops', { status: 503 }),
      async () => new Response('<html>', { status: 200 }),
      async () => Response.json({ name: 'no version' }),
    ];
    for (const answer of answers) {
      const { env } = environment(answer);
      await expect(checkVersion('0.0.1', env)).resolves.toBe('failed');
      expect(env.reload).not.toHaveBeenCalled();
      expect(env.serviceWorker.getRegistrations).not.toHaveBeenCalled();
      expect(env.log).toHaveBeenCalledWith(expect.stringContaining('failed'), expect.anything());
    }
  });

  it('does not reload twice for the same server version (no reload loop)', async () => {
    const { env } = environment(version('0.0.2'));
    await expect(checkVersion('0.0.1', env)).resolves.toBe('reloading');
    // The reloaded page is still 0.0.1 (the server serves an older build): go on, do not loop.
    await expect(checkVersion('0.0.1', env)).resolves.toBe('mismatch');
    expect(env.reload).toHaveBeenCalledTimes(1);
    // A later deploy of yet another version reloads again.
    env.fetch.mockImplementation(version('0.0.3'));
    await expect(checkVersion('0.0.1', env)).resolves.toBe('reloading');
    expect(env.reload).toHaveBeenCalledTimes(2);
  });

  it('works without sessionStorage and without service workers', async () => {
    const { env } = environment(version('0.0.2'));
    const bare: VersionCheckEnvironment = {
      ...env,
      serviceWorker: undefined,
      storage: {
        getItem: () => {
          throw new Error('blocked');
        },
        setItem: () => {
          throw new Error('blocked');
        },
        removeItem: () => {},
      },
    };
    await expect(checkVersion('0.0.1', bare)).resolves.toBe('reloading');
    expect(env.reload).toHaveBeenCalledTimes(1);
  });
});
