/**
 * The call table: every call of the API with its method, path, who may make it, and its schemas.
 * The server registers its routes from this table, the app's typed client calls through it,
 * and the OpenAPI document at /docs is generated from it.
 */
import type { z } from 'zod';
import { antifraudCalls } from './antifraud.ts';
import { authCalls } from './auth.ts';
import { documentsCalls } from './documents.ts';
import { identificationCalls } from './identification.ts';
import { liveCalls } from './live.ts';
import { merchantCalls } from './merchants.ts';
import { moneyFlowCalls } from './money-flow.ts';
import { moneyManagementCalls } from './money-management-calls.ts';
import { providerCalls } from './provider-callbacks.ts';
import { requestsCalls } from './requests.ts';
import { sbpCalls } from './sbp.ts';
import { supportCalls } from './support.ts';
import { walletCalls } from './wallet.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallDef {
  method: Method;
  path: string;
  /**
   * 'token': needs `Authorization: Token <token>`; 'public': anyone; 'provider': a signed provider callback;
   * 'merchant': the merchant API's HTTP Basic (merchant id and secret key).
   */
  access: 'token' | 'public' | 'provider' | 'merchant';
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  answer: z.ZodType;
  /** Money-moving calls take an Idempotency-Key header; a repeat returns the first answer. */
  idempotent?: boolean;
  /** Bytes a request body may have when more than the server's default (a photo upload). */
  bodyLimit?: number;
}

export const calls = {
  ...authCalls,
  ...walletCalls,
  ...liveCalls,
  ...identificationCalls,
  ...moneyFlowCalls,
  ...requestsCalls,
  ...documentsCalls,
  ...providerCalls,
  ...antifraudCalls,
  ...moneyManagementCalls,
  ...supportCalls,
  ...sbpCalls,
  ...merchantCalls,
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type InferIn<T> = T extends z.ZodType ? z.input<T> : undefined;
export type BodyOf<N extends CallName> = InferIn<Calls[N] extends { body: infer B } ? B : undefined>;
export type QueryOf<N extends CallName> = InferIn<Calls[N] extends { query: infer Q } ? Q : undefined>;
export type ParamsOf<N extends CallName> = InferIn<Calls[N] extends { params: infer P } ? P : undefined>;
export type AnswerOf<N extends CallName> = Infer<Calls[N]['answer']>;
/** What the server's handler receives after validation (zod output types). */
export type BodyOut<N extends CallName> = Infer<Calls[N] extends { body: infer B } ? B : undefined>;
export type QueryOut<N extends CallName> = Infer<Calls[N] extends { query: infer Q } ? Q : undefined>;
export type ParamsOut<N extends CallName> = Infer<Calls[N] extends { params: infer P } ? P : undefined>;
