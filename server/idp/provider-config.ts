// An OpenID Connect identity provider as an administrator configures it (the idps row's config,
// never answered back), and the relying-party configuration openid-client discovers from it.
import type * as oidc from 'openid-client';
import { outboundFetch, outboundPolicy } from '../http/outbound-address';
import { lazy } from '../lazy';
import type { Ctx } from '../context';
import { fieldError, notFound } from '../http/errors';

/** openid-client, imported on the first third-party sign-in (see server/lazy.ts). */
export const openidClient = lazy(() => import('openid-client'));

export interface IdentityProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated; 'openid' is always asked. */
  scopes: string;
}

/** Plain http is accepted only for a provider on this machine (development and tests). */
const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

function readConfig(text: string): IdentityProviderConfig | undefined {
  const config = JSON.parse(text) as Record<string, unknown>;
  const field = (name: string) => (typeof config[name] === 'string' ? config[name] : '');
  if (!field('issuer') || !field('clientId')) return undefined;
  return { issuer: field('issuer'), clientId: field('clientId'), clientSecret: field('clientSecret'), scopes: field('scopes') || 'openid profile email' };
}

/** The sign-in button's icon is kept in the config under this key: the one public value there. */
const ICON = 'icon';

/** The stored icon (an upload's name) of a provider's config text, or null. */
export function iconOf(text: string): string | null {
  const icon = (JSON.parse(text) as Record<string, unknown>)[ICON];
  return typeof icon === 'string' && icon ? icon : null;
}

/** The config with the icon set from the validated `icon` field only (a config key named 'icon' is
 *  ignored); `icon` undefined keeps the one in `stored`, '' removes it. */
export function configWithIcon(stored: Record<string, string>, given: Record<string, string>, icon: string | undefined): Record<string, string> {
  const { [ICON]: kept, ...rest } = stored;
  const { [ICON]: _ignored, ...changes } = given;
  const next = icon ?? kept ?? '';
  return { ...rest, ...changes, ...(next ? { [ICON]: next } : {}) };
}

/** An icon must be an image uploaded to us. */
export async function checkIcon(ctx: Ctx, icon: string | undefined): Promise<void> {
  if (!icon) return;
  const file = await ctx.db.selectFrom('files').select('id').where('id', '=', icon).executeTakeFirst();
  if (!file) throw fieldError([{ field: 'icon', rule: 'rule.fileName' }]);
}

export function scopeOf(config: IdentityProviderConfig): string {
  return [...new Set(['openid', ...config.scopes.split(/[\s,]+/).filter(Boolean)])].join(' ');
}

/** The enabled OIDC provider `code` with a usable configuration, or 404. */
export async function identityProvider(ctx: Ctx, code: string): Promise<IdentityProviderConfig> {
  const row = await ctx.db.selectFrom('idps').select(['config', 'type', 'enabled']).where('code', '=', code).executeTakeFirst();
  const config = row && row.enabled === 1 && row.type === 'OIDC' ? readConfig(row.config) : undefined;
  if (!config) throw notFound('Identity provider');
  return config;
}

/** The provider's configuration; every request openid-client makes for it (discovery, token,
 *  userinfo, JWKS) goes through the outbound address guard with the operator's allow-list
 *  (server/http/outbound-address.ts): a provider's document cannot send the server to a private or
 *  metadata address. */
export async function discover(ctx: Ctx, config: IdentityProviderConfig): Promise<oidc.Configuration> {
  const issuer = new URL(config.issuer);
  const oidc = await openidClient();
  const policy = outboundPolicy(ctx.config);
  const guarded: oidc.CustomFetch = (url, options) =>
    outboundFetch(url, {
      ...policy,
      method: options.method,
      headers: Object.fromEntries(new Headers(options.headers as HeadersInit)),
      // oauth4webapi passes `body: null` on a GET (userinfo): that is no body.
      body: (options.body ?? undefined) as string | URLSearchParams | undefined,
      signal: options.signal ?? undefined,
    });
  return oidc.discovery(issuer, config.clientId, config.clientSecret || undefined, undefined, {
    ...(isLoopback(issuer) && issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    [oidc.customFetch]: guarded,
    timeout: 10,
  });
}
