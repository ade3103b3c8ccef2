import { describe, expect, it } from 'vitest';
import { filesToPreload, hasStoredToken, type RoutePreloadTable, SESSION_KEY } from '../preload-route.ts';
import { SESSION_STORAGE_KEY, useSessionStore } from '../shared/store/session-store.ts';
import { modulesFor, modulesOfRoute, routeMatchers, routeNameOf } from './route-plan.ts';
import { routeNameOf as routerRouteNameOf } from './routes.tsx';

const PATHS = [
  '/',
  '/history',
  '/wallet',
  '/wallet/8f0c2a',
  '/wallet/topup',
  '/wallet/withdrawal',
  '/wallet/save',
  '/wallet/request',
  '/wallet/schedules',
  '/pay/r/q4Zx9-AbCdEfGhIjKlMnOpQrStUvWx',
  '/wallet/payments/finish',
  '/payment',
  '/settings',
  '/auth',
  '/auth/login',
  '/auth/register',
  '/Auth/Login/',
  '/history/',
  '/nowhere',
  '/wallet/a/b',
];

describe('route plan (start-up preload)', () => {
  it('names each path as the router does', () => {
    for (const path of PATHS) expect(routeNameOf(path), path).toBe(routerRouteNameOf(path));
  });

  it('lists the first screen: the layout and the page signed in, the landing signed out, the auth pages alone', () => {
    expect(modulesFor('/', true)).toEqual(['HomeLayout', 'HomePage']);
    expect(modulesFor('/wallet/8f0c2a', true)).toEqual(['HomeLayout', 'WalletIdPage']);
    expect(modulesFor('/nowhere', true)).toEqual(['HomeLayout', 'HomePage']);
    expect(modulesFor('/settings', false)).toEqual(['AuthInPage']);
    expect(modulesFor('/auth/login', false)).toEqual(['LoginPage']);
    expect(modulesFor('/auth/login', true)).toEqual(['LoginPage']);
  });

  it('gives the preload script the same answers through the build table', () => {
    // The table as vite.config.ts builds it, with one made-up file per module.
    const files: string[] = [];
    const fileOf = (name: string) => {
      if (!files.includes(`${name}.js`)) files.push(`${name}.js`);
      return files.indexOf(`${name}.js`);
    };
    const table: RoutePreloadTable = {
      files,
      routes: routeMatchers().map(({ name, pattern }) => [
        pattern,
        modulesOfRoute(name, true).map(fileOf),
        modulesOfRoute(name, false).map(fileOf),
      ]),
    };
    for (const path of PATHS)
      for (const signedIn of [true, false])
        expect(filesToPreload(table, path, signedIn), `${path} ${signedIn}`).toEqual(
          modulesFor(path, signedIn).map((name) => `/assets/${name}.js`),
        );
  });

  it('reads the token where the session store keeps it', () => {
    expect(SESSION_KEY).toBe(SESSION_STORAGE_KEY);
    useSessionStore.getState().clearAuth();
    expect(hasStoredToken()).toBe(false);
    useSessionStore.getState().setAuthToken('token-1');
    expect(hasStoredToken()).toBe(true);
    useSessionStore.getState().clearAuth();
    expect(hasStoredToken()).toBe(false);
  });
});
