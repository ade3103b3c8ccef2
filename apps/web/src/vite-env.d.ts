/// <reference types="vite/client" />
declare const __APP_VERSION__: string;
declare const __BRAND__: string;

declare module 'virtual:call-table' {
  import type { CallName, Method } from '@e-wallet/contract';
  export interface CallRoute {
    method: Method;
    path: string;
    access: 'token' | 'public' | 'provider';
    idempotent: boolean;
  }
  export const callTable: Record<CallName, CallRoute>;
}
