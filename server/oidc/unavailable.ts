// oidc-provider answers an error of its own storage as `500 server_error`. When that error means
// the database cannot be reached right now (a restart, a failover), the app is told so the way
// the rest of the API tells it: 503 with Retry-After, OAuth's `temporarily_unavailable`.
import type Provider from 'oidc-provider';
import { databaseUnavailable, RETRY_AFTER_S } from '../db/availability';

/** OAuth's answer while the database cannot be reached. */
export const TEMPORARILY_UNAVAILABLE = { error: 'temporarily_unavailable', error_description: 'The service is temporarily unavailable; try again shortly' };

export function answerUnavailableDatabaseAs503(provider: Provider): void {
  // The provider's contexts whose server error came from an unreachable database.
  const unavailable = new WeakSet<object>();
  provider.on('server_error', (ctx: object, error: unknown) => {
    if (databaseUnavailable(error)) unavailable.add(ctx);
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!unavailable.has(ctx)) return;
    ctx.status = 503;
    ctx.set('retry-after', String(RETRY_AFTER_S));
    ctx.type = 'json';
    ctx.body = TEMPORARILY_UNAVAILABLE;
  });
}
