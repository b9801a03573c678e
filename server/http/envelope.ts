// The one answer envelope of every JSON answer (src/core/types.ts `Envelope`).
import type { Envelope } from '../../src/core/types';

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { code: 0, message, data };
}

export function failure(code: number, message: string, data: unknown = null): Envelope<unknown> {
  return { code, message, data };
}
