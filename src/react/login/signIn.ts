// The one place the sign-in form talks to the core's session (placeholder until src/core/session lands).
import type { LoginAnswer } from '../../core/types';

export interface SignInOptions {
  /** Base of the API (default /api). */
  apiBase?: string;
  /** 'cookie' (default) or 'token' (§3 authConfig; the token stays in memory). */
  authMode?: string;
  /** Header that carries the token in token mode (default 'token'). */
  tokenName?: string;
}

export async function signIn(_credentials: { username: string; password: string }, _options: SignInOptions): Promise<LoginAnswer> {
  throw new Error('session not wired yet');
}
