// Points the core's HTTP client at the API an element was given (attributes api-base,
// auth-mode, token-name). The client is page-wide: every iam-* element on a page shares one
// session, so they share one API.
import { HTTP, defaultOtherSettings } from '../../core/config';
import { configureHttp } from '../../core/http';

export interface ConnectionOptions {
  /** Base of the API (default /api). */
  apiBase?: string;
  /** 'cookie' (default) or 'token' (authConfig: the token stays in memory). */
  authMode?: string;
  /** The header that carries the token in token mode (default 'token'). */
  tokenName?: string;
}

export function connect({ apiBase, authMode, tokenName }: ConnectionOptions): void {
  configureHttp({
    apiBase: apiBase || HTTP.apiBase,
    authMode: authMode === 'token' ? 'token' : 'cookie',
    tokenName: tokenName || defaultOtherSettings.authConfig.tokenName,
  });
}
