/**
 * Calls of the back office API through the contract's table (packages/contract/src/ops.ts), with the
 * operator's token of this tab and the chosen language. An error answer throws ApiError with the
 * server's code and message (in that language); INVALID_TOKEN also signs the tab out.
 */
import { type OpsCallName, opsCalls } from '@e-wallet/contract';
import { currentLanguage } from '../i18n/i18n.ts';

const TOKEN = 'backoffice.token';

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

/** The operator's token of this tab (sessionStorage: it ends with the tab) and who listens to it. */
export const session = {
  token: () => sessionStorage.getItem(TOKEN),
  set: (token: string) => {
    sessionStorage.setItem(TOKEN, token);
    changed();
  },
  clear: () => {
    sessionStorage.removeItem(TOKEN);
    changed();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export interface CallInput {
  params?: { id: string; queue?: string };
  query?: Record<string, string | undefined>;
  body?: unknown;
}

export function pathOf(name: OpsCallName, input: CallInput = {}): string {
  let path = opsCalls[name].path
    .replace(':id', encodeURIComponent(input.params?.id ?? ''))
    .replace(':queue', encodeURIComponent(input.params?.queue ?? ''));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {}))
    if (value !== undefined && value !== '') search.set(key, value);
  if (search.size > 0) path += `?${search}`;
  return path;
}

export async function opsCall<T = unknown>(name: OpsCallName, input: CallInput = {}): Promise<T> {
  const call = opsCalls[name];
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': currentLanguage(),
  };
  const token = session.token();
  if (token) headers.authorization = `Token ${token}`;
  let body: string | undefined;
  if (call.method === 'POST') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input.body ?? {});
  }
  let res: Response;
  try {
    res = await fetch(pathOf(name, input), { method: call.method, headers, body });
  } catch {
    throw new ApiError(0, 'NETWORK', '');
  }
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) {
    if (res.status === 401 && answer.code === 'INVALID_TOKEN' && token) session.clear();
    throw new ApiError(res.status, answer.code ?? 'INTERNAL_ERROR', answer.message ?? res.statusText);
  }
  return answer as T;
}

/** A list's page as every list of the API answers it. */
export interface Page<T> {
  results: T[];
  next: string | null;
}
