/** Calls of the back office API (packages/contract/src/ops.ts) with the operator's token of this tab. */
import { currentLanguage } from './i18n.tsx';

const TOKEN = 'backoffice.token';

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const session = {
  token: () => sessionStorage.getItem(TOKEN),
  set: (token: string) => sessionStorage.setItem(TOKEN, token),
  clear: () => sessionStorage.removeItem(TOKEN),
};

/** The API's answer; an error answer throws ApiError with the server's message in the chosen language. */
export async function api<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'accept-language': currentLanguage() };
  const token = session.token();
  if (token) headers.authorization = `Token ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) {
    if (res.status === 401 && answer.code === 'INVALID_TOKEN') {
      session.clear();
      window.dispatchEvent(new Event('backoffice:signed-out'));
    }
    throw new ApiError(res.status, answer.code ?? 'INTERNAL_ERROR', answer.message ?? res.statusText);
  }
  return answer as T;
}
