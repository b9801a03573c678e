// The OpenID Connect provider for the apps (oidc-provider, a certified implementation): the
// authorization code flow with PKCE, refresh tokens, userinfo, discovery and JWKS. Signing in and
// consent happen in the console (the hidden oauth/authorize route) with our own session.
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Ctx } from '../context';
import { Status } from '../../src/core/enums';
import { adapterFactory } from './adapter';
import { providerKeys } from './keys';
import { oidcDb } from './tables';
import { SESSION_COOKIE } from '../auth/gate';

/** Where the provider is mounted under the API (the issuer is <origin>/api/oidc). */
export const OIDC_MOUNT = '/oidc';
export const OIDC_PATH = `/api${OIDC_MOUNT}`;
/** The console's consent page (SPEC §2: oauth/authorize, hidden, no ACL check). */
export const CONSENT_PAGE = '/oauth/authorize';

const hour = 3600;

async function findAccount(ctx: Ctx, accountId: string) {
  const user = await ctx.db.selectFrom('users').select(['id', 'username', 'realName', 'email', 'mobilePhone', 'avatar', 'availabilityStatus'])
    .where('id', '=', accountId).executeTakeFirst();
  if (!user || user.availabilityStatus !== Status.Enable) return undefined;
  return {
    accountId,
    claims: () => ({
      sub: user.id,
      preferred_username: user.username,
      name: user.realName,
      ...(user.email ? { email: user.email } : {}),
      ...(user.mobilePhone ? { phone_number: user.mobilePhone } : {}),
      ...(user.avatar ? { picture: user.avatar } : {}),
    }),
  };
}

async function configuration(ctx: Ctx): Promise<Configuration> {
  const db = oidcDb(ctx.db);
  const { jwks, cookieKeys } = await providerKeys(db, ctx.now());
  return {
    adapter: adapterFactory(db),
    jwks,
    cookies: { keys: cookieKeys },
    findAccount: (_oidc: KoaContextWithOIDC, sub: string) => findAccount(ctx, sub),
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username', 'picture'],
      email: ['email'],
      phone: ['phone_number'],
    },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'phone'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    // An earlier consent counts only while the same person is signed in to the console: after a
    // sign-out (or as someone else) the app's request goes through the sign-in and consent page again.
    loadExistingGrant: async (koa) => {
      const { oidc } = koa;
      const secret = koa.cookies.get(SESSION_COOKIE, { signed: false });
      const live = secret ? await ctx.sessions.resolve(secret, 'cookie') : undefined;
      if (!live || !oidc.session || !oidc.client || live.user.id !== oidc.session.accountId) return undefined;
      const grantId = (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      return grantId ? oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: { url: (_oidc, interaction) => `${CONSENT_PAGE}?uid=${encodeURIComponent(interaction.uid)}` },
    // Apps get a refresh token with every code exchange (they all allow the refresh_token grant).
    issueRefreshToken: async (_oidc, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('openid'),
    ttl: {
      AccessToken: hour,
      AuthorizationCode: 60,
      IdToken: hour,
      Interaction: hour,
      Grant: 14 * 24 * hour,
      Session: 14 * 24 * hour,
      RefreshToken: 14 * 24 * hour,
    },
    renderError: async (oidc, out) => {
      oidc.type = 'json';
      oidc.body = out;
    },
  };
}

/**
 * Built on first use, with the configured issuer (ctx.site: IAM_OIDC_ISSUER or IAM_PUBLIC_URL,
 * never a request's Host). The provider believes X-Forwarded-*, which the mount (routes/sso.ts)
 * rewrites for every request from what Fastify decided: our public host and protocol, and the
 * client address only when a trusted proxy said it.
 */
export class OidcProvider {
  private provider: Promise<Provider> | undefined;

  constructor(private readonly ctx: Ctx) {}

  get(): Promise<Provider> {
    this.provider ??= configuration(this.ctx).then((config) => {
      const provider = new Provider(this.ctx.site.issuer(), config);
      provider.proxy = true;
      return provider;
    });
    return this.provider;
  }
}
