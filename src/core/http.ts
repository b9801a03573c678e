// The one HTTP client of the console. Every JSON answer is an Envelope `{ code, message,
// data }` with code 0 on success; the HTTP status carries the class of a failure.
//
// - 30 s timeout (AbortController); empty query values are removed.
// - Non-silent calls count in `$progress` (the progress bar).
// - 401 → the session is cleared and the UI is asked to go to /login?redirect=<current location>.
// - 403 → the message (or 'No Authenticated') for 2 s; other errors → the message for 6 s unless silent.
//   The toast waits for the caller's `catch` (a macrotask): a form that shows the failure inline
//   says so with showInline(error), and the failure is then said once, not twice.
// - Auth modes: 'cookie' (HttpOnly session cookie; credentials are included only when the API is on
//   another origin) or 'token' (kept in memory only, sent in the header named `tokenName`, and only
//   to the origin of the API that issued it).
// - Addresses resolve as fetch resolves them: against the document's base URL (`<base href>`).
import { atom } from 'nanostores';
import { HTTP, TOAST } from './config';
import { $config } from './config-store';
import { $locale, t } from './i18n';
import { notifyError } from './messages';
import { randomHex } from './random';
import { currentLocation, requestNavigation } from './navigation';
import { LOGIN_PATH, pathOf, withRedirect } from './public-routes';
import { $session, clearSession } from './session-state';
import type { Envelope, PagedList } from './types';

export type AuthMode = 'cookie' | 'token';

export interface HttpConfig {
  apiBase: string;
  authMode: AuthMode;
  tokenName: string;
}

/** The header with which a client asks the server for token mode at sign-in. */
export const AUTH_MODE_HEADER = 'x-iam-auth-mode';

let config: HttpConfig = { apiBase: HTTP.apiBase, authMode: 'cookie', tokenName: 'token' };
/** Token mode: the session token, the header the server reads it from, and the origin of the API
 *  that issued it, the only one it is ever sent to. Module state only: it is never written to
 *  storage, an attribute, an event, a URL, or answered by any export. */
let token: { value: string; header: string; origin: string } | undefined;

/** What fetch resolves a relative address against: the document's base URL (a `<base href>` moves
 *  it), else the page's address. */
const pageBase = (): string => globalThis.document?.baseURI ?? globalThis.location?.href ?? 'http://localhost/';

/** The origin of the configured API as fetch resolves its base ('' for a base that is no URL). */
function apiOrigin(): string {
  try {
    return new URL(`${config.apiBase}/`, pageBase()).origin;
  } catch {
    return '';
  }
}

/** Points the client at an API. The client is page-wide (every element shares it, and the session):
 *  a token is kept only while the API stays on the origin that issued it. */
export function configureHttp(options: Partial<HttpConfig>): void {
  config = { ...config, ...options };
  config.apiBase = config.apiBase.replace(/\/+$/, '');
  // Another element's api-base, or a changed one, on another origin: that API has no session here.
  // The token is dropped rather than sent there, and the person is signed out.
  if (token && token.origin !== apiOrigin()) {
    setToken(undefined);
    clearSession();
  }
  // Token mode: a session is only the token a sign-in of this page kept (a reload forgets it), so
  // without one the visitor is anonymous; there is nothing to ask the server.
  if (config.authMode === 'token' && !token && $session.get().status === 'unknown') clearSession();
}

export function httpConfig(): Readonly<HttpConfig> {
  return config;
}

/** Token mode: keeps the session token of a sign-in answer, for the header the answer names (the
 *  one the server reads), else the configured `tokenName`, bound to the origin of the API it came
 *  from (the configured one: `request` drops an answer that arrives after the API moved). */
export function setToken(value: string | undefined, header?: string): void {
  token = value ? { value, header: header || config.tokenName, origin: apiOrigin() } : undefined;
}

export function hasToken(): boolean {
  return token !== undefined;
}

/** In-flight non-silent requests (the progress bar runs while it is above 0). */
export const $progress = atom(0);

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  /** JSON-encoded, unless it is FormData (sent as multipart). */
  body?: unknown;
  /** No progress, no error toast (except 403, which always shows). */
  silent?: boolean;
  timeout?: number;
  /** false: a 401 is only thrown, without clearing the session and going to sign-in (login, session read). */
  authRedirect?: boolean;
  headers?: Record<string, string>;
  /** The answer is a file (a download): a success resolves to its body as a Blob. */
  file?: boolean;
}

/** 'moved': the API base moved to another origin while the call was under way; its answer, from an
 *  API no longer configured, is dropped. */
export type HttpErrorReason = 'http' | 'timeout' | 'network' | 'invalid' | 'moved';

export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    /** HTTP status; 0 when no answer arrived (timeout, network). */
    readonly status: number,
    /** The envelope code (or the status when there was no envelope; -1 when there was no answer). */
    readonly code: number,
    message: string,
    readonly data: unknown = null,
    readonly reason: HttpErrorReason = 'http',
  ) {
    super(message);
  }

  /** Set by showInline: the caller shows this failure itself, so no toast repeats it. */
  shownInline = false;
}

/** The caller shows `error` in its form (under a field, or in the form's alert): the HTTP client's
 *  toast for it is dropped. Call it in the `catch` of the call, before awaiting anything else. */
export function showInline(error: unknown): void {
  if (error instanceof HttpError) error.shownInline = true;
}

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null || item === '') continue;
      params.append(name, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** An API path (`/user`) under the configured base, with the non-empty query values: `url` as
 *  written (relative when the base is), `target` resolved as fetch resolves it, which is what is
 *  checked and what is fetched. A path that would leave the API (`//host`, `@host`, `/../`)
 *  throws: the session goes only there. */
function apiAddress(path: string, query?: Query): { url: string; target: URL } {
  const url = `${config.apiBase}${path}${queryString(query)}`;
  const base = new URL(`${config.apiBase}/`, pageBase());
  const target = new URL(url, pageBase());
  if (!path.startsWith('/') || path.startsWith('//') || target.origin !== base.origin || !`${target.pathname}/`.startsWith(base.pathname)) {
    throw new Error(`Not a path of the API: ${path}`);
  }
  return { url, target };
}

/** The URL of an API path (`/user`) under the configured base, with the non-empty query values.
 *  A path that would leave the API (`//host`, `@host`, `/../`) throws: the session goes only there. */
export function apiUrl(path: string, query?: Query): string {
  return apiAddress(path, query).url;
}

/** Whether the API is on another origin than the page. */
export function apiIsCrossOrigin(): boolean {
  const origin = apiOrigin();
  return origin !== '' && origin !== globalThis.location?.origin;
}

function credentials(): RequestCredentials {
  return config.authMode === 'cookie' && apiIsCrossOrigin() ? 'include' : 'same-origin';
}

/** The headers of token mode for a call to `origin`: the token only when that API issued it. */
function authHeaders(origin: string): Record<string, string> {
  if (config.authMode !== 'token') return {};
  return { [AUTH_MODE_HEADER]: 'token', ...(token?.origin === origin ? { [token.header]: token.value } : {}) };
}

async function readEnvelope(response: Response): Promise<Envelope | undefined> {
  if (!response.headers.get('content-type')?.includes('json')) return undefined;
  try {
    const value: unknown = await response.json();
    return value && typeof value === 'object' && 'code' in value ? (value as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

function defaultMessage(status: number): string {
  if (status === 401) return t('message.authorizationError');
  if (status === 403) return t('message.noAuthenticated');
  return t('message.requestFailed');
}

function goToLogin(): void {
  clearSession();
  setToken(undefined);
  const location = currentLocation();
  if (pathOf(location) !== LOGIN_PATH) requestNavigation(withRedirect(LOGIN_PATH, location));
}

/** The reaction to a failed call. The toast comes after the caller's `catch` has run, unless it
 *  showed the failure inline (showInline). */
function report(error: HttpError, options: RequestOptions): void {
  if (error.status === 401 && options.authRedirect !== false) return goToLogin();
  if (error.status !== 403 && options.silent) return;
  const duration = error.status === 403 ? TOAST.forbiddenMs : TOAST.errorMs;
  setTimeout(() => {
    if (!error.shownInline) notifyError(error.message, duration);
  }, 0);
}

/** Fire-and-forget report of one call to the trace collector (only with the tracing switch on). */
function trace(span: { traceId: string; method: string; path: string; status: number; durationMs: number }): void {
  const { target } = apiAddress('/trace');
  void fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(target.origin) },
    body: JSON.stringify(span),
    credentials: credentials(),
    keepalive: true,
  }).catch(() => undefined);
}

/**
 * `fetch` for the host page: `path` under the API base (`/user/profile`), sent with the session of
 * the elements on the page (the cookie, or in token mode the token header). The token itself is
 * never handed out; a path that would leave the API is refused. Answers the raw Response.
 */
export function iamFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const { target } = apiAddress(path);
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(authHeaders(target.origin))) headers.set(name, value);
  return fetch(target, { ...init, headers, credentials: credentials() });
}

/** Calls the API; resolves to the envelope's `data`, or throws an HttpError after the reaction. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const { body, silent = false, timeout = HTTP.timeoutMs } = options;
  const { target } = apiAddress(path, options.query);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  // The tracing switch (business.skywalkingSwitch 'Y') reports each call to the collector at /trace.
  const traceId = $config.get().settings.business.skywalkingSwitch === 'Y' ? randomHex(16) : undefined;
  const started = Date.now();
  let status = 0;
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  if (!silent) $progress.set($progress.get() + 1);
  try {
    let response: Response;
    try {
      response = await fetch(target, {
        method,
        headers: {
          accept: 'application/json',
          // The server answers its messages in the console's language (server/http/language.ts).
          'accept-language': $locale.get(),
          ...(body !== undefined && !multipart ? { 'content-type': 'application/json' } : {}),
          ...(traceId ? { traceparent: `00-${traceId}-${randomHex(8)}-01` } : {}),
          ...authHeaders(target.origin),
          ...options.headers,
        },
        body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
        credentials: credentials(),
        signal: controller.signal,
      });
    } catch {
      throw controller.signal.aborted
        ? new HttpError(0, -1, t('message.requestTimeout'), null, 'timeout')
        : new HttpError(0, -1, t('message.networkError'), null, 'network');
    }
    status = response.status;
    // A file is the body itself; a refusal of it is an envelope as any call's.
    const file = response.ok && options.file ? await response.blob() : undefined;
    const envelope = file ? undefined : await readEnvelope(response);
    if (controller.signal.aborted) throw new HttpError(0, -1, t('message.requestTimeout'), null, 'timeout');
    // The answer of an API the page has since left (a token in it would be bound to the new one).
    if (apiOrigin() !== target.origin) throw new HttpError(0, -1, t('message.requestFailed'), null, 'moved');
    if (file) return file as T;
    if (response.ok && (!envelope || envelope.code === 0)) return envelope?.data as T;
    throw new HttpError(status, envelope?.code ?? status, envelope?.message || defaultMessage(status), envelope?.data ?? null);
  } catch (error) {
    const failure = error instanceof HttpError ? error : new HttpError(status, -1, t('message.requestFailed'), null, 'network');
    report(failure, options);
    throw failure;
  } finally {
    clearTimeout(timer);
    if (!silent) $progress.set($progress.get() - 1);
    if (traceId) trace({ traceId, method, path, status, durationMs: Date.now() - started });
  }
}

/** A list call: the answer must carry an array `list` ('Invalid list result'). */
export async function requestList<T>(path: string, query?: Query, options: Omit<RequestOptions, 'query' | 'body'> = {}): Promise<PagedList<T>> {
  const data = await request<PagedList<T> | null>('GET', path, { ...options, query });
  if (!data || !Array.isArray(data.list)) {
    const failure = new HttpError(200, -1, t('message.invalidListResult'), data, 'invalid');
    report(failure, options);
    throw failure;
  }
  return data;
}
