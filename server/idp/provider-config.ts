// An OpenID Connect identity provider as an administrator configures it (the idps row's config,
// never answered back), and the relying-party configuration openid-client discovers from it.
import * as oidc from 'openid-client';
import type { Ctx } from '../context';
import { notFound } from '../http/errors';

export interface IdentityProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated; 'openid' is always asked. */
  scopes: string;
}

/** Plain http is accepted only for a provider on this machine (development and tests). */
const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

export function readConfig(text: string): IdentityProviderConfig | undefined {
  const config = JSON.parse(text) as Record<string, unknown>;
  const field = (name: string) => (typeof config[name] === 'string' ? config[name] : '');
  if (!field('issuer') || !field('clientId')) return undefined;
  return { issuer: field('issuer'), clientId: field('clientId'), clientSecret: field('clientSecret'), scopes: field('scopes') || 'openid profile email' };
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

export async function discover(config: IdentityProviderConfig): Promise<oidc.Configuration> {
  const issuer = new URL(config.issuer);
  return oidc.discovery(issuer, config.clientId, config.clientSecret || undefined, undefined, {
    ...(isLoopback(issuer) && issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    timeout: 10,
  });
}
