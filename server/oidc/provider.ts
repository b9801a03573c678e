// The OpenID Connect provider for the apps (oidc-provider, a certified implementation): the
// authorization code flow with PKCE, refresh tokens, userinfo, discovery and JWKS, RP-initiated
// logout, introspection of an app's own tokens, client_credentials for the apps that switch it on,
// no consent page for trusted apps; public clients (single-page and native apps) without a secret,
// called from the browser by their redirect URIs' origins (cors.ts, public-clients.ts). Signing in and consent happen in the console (the hidden
// oauth/authorize route) with our own session, which counts as the provider's login
// (console-login.ts: silent sign-in). What ends an app's access: see revoke.ts.
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { oidcLibrary } from './library';
import type { Ctx } from '../context';
import { payloadStorage } from './adapter';
import { recordingAppSignIns } from './app-sign-in-record';
import { recordingGrantEnds } from './grant-end-record';
import { answerUnavailableDatabaseAs503 } from './unavailable';
import { providerKeys } from './keys';
import { oidcDb } from './tables';
import { compiledStatement } from '../db/statement';
import { formPostPolicy } from './form-post-policy';
import { APP_SCOPES, rolesClaims, tenantClaims } from './app-claims';
import { endConsoleSessionOnLogout, logoutSource } from './logout';
import { machineResources, onlyHeldPrivileges, unauthorizedGrantType } from './machine';
import { isTrusted } from './clients';
import { clientBasedCORS, openEndpointsCORS } from './cors';
import { noIntrospectionForPublicClients, refreshTokenTTL } from './public-clients';
import { consoleSignIn, finishInteraction, freshEnough } from './interactions';
import { consolePerson, existingGrant, signedOutOfConsole, signInFromConsole } from './console-login';
import { sendProviderLogoutsThroughOutbox } from './backchannel';
import { DPOP_ALGORITHMS } from './dpop';
import { spendCodeOnFailedExchange } from './spent-codes';
import { maySignIn, PERSON_COLUMNS, takePersonReadAhead } from './read-ahead';
import { isEmailVerified } from '../auth/verified-email';
import { refreshGrants } from './refresh-grant';

/** Where the provider is mounted under the API (the issuer is <origin>/api/oidc). */
export const OIDC_MOUNT = '/oidc';
export const OIDC_PATH = `/api${OIDC_MOUNT}`;
/** The console's consent page (oauth/authorize, hidden, no ACL check). */
const CONSENT_PAGE = '/oauth/authorize';

const hour = 3600;

/** The person as the provider sees them, while they may sign in; app claims only for `clientId`.
 *  Read on every token and introspection call: usually with the token itself (read-ahead.ts),
 *  otherwise by a statement compiled once (prepared on PostgreSQL). */
function accountFinder(ctx: Ctx) {
  const person = compiledStatement<{ id: string }>({ preparedOnPostgres: true })((slot) =>
    ctx.db.selectFrom('users').select(PERSON_COLUMNS).where('id', '=', slot('id')),
  );
  return async (accountId: string, clientId: string | undefined) => {
    const ahead = takePersonReadAhead(accountId);
    const user = ahead === undefined ? (await ctx.db.executeQuery(person({ id: accountId }))).rows[0] : ahead;
    if (!maySignIn(user)) return undefined;
    return {
      accountId,
      claims: async (_use: string, scope: string) => {
        const scopes = new Set(scope.split(' '));
        return {
          sub: user.id,
          preferred_username: user.username,
          name: user.realName,
          ...(user.email ? { email: user.email, email_verified: isEmailVerified(user) } : {}),
          ...(user.mobilePhone ? { phone_number: user.mobilePhone } : {}),
          ...(user.avatar ? { picture: user.avatar } : {}),
          ...(scopes.has('roles') && clientId ? await rolesClaims(ctx.db, user.id, clientId) : {}),
          ...(scopes.has('tenant') ? await tenantClaims(ctx.db, user) : {}),
        };
      },
    };
  };
}

/** The default policy, plus: a provider session whose person can no longer sign in (disabled or
 *  deleted), or who is no longer signed in to the console in this browser (console-login.ts), asks
 *  for a sign-in again (login_required with prompt=none), instead of carrying on without an account
 *  or with a console session that ended. */
function policy({ interactionPolicy }: Awaited<ReturnType<typeof oidcLibrary>>, ctx: Ctx) {
  const checks = interactionPolicy.base();
  const login = checks.get('login')!;
  login.checks.add(
    new interactionPolicy.Check(
      'account_unavailable',
      'the signed-in person can no longer sign in',
      'login_required',
      (koa) => Boolean(koa.oidc.session?.accountId) && !koa.oidc.account,
    ),
  );
  login.checks.add(signedOutOfConsole(ctx, interactionPolicy.Check));
  return checks;
}

type FindAccount = ReturnType<typeof accountFinder>;

async function configuration(
  ctx: Ctx,
  library: Awaited<ReturnType<typeof oidcLibrary>>,
  storage: ReturnType<typeof payloadStorage>,
  findAccount: FindAccount,
): Promise<Configuration> {
  const db = oidcDb(ctx.db);
  const { jwks, cookieKeys } = await providerKeys(db, ctx.now());
  const interactionPolicy = policy(library, ctx);
  return {
    adapter: storage.adapter,
    jwks,
    cookies: { keys: cookieKeys },
    // The app asking is the client of this request (the token endpoint's authenticated client, the
    // access token's client at userinfo): another app's roles are never read.
    findAccount: (koa: KoaContextWithOIDC, sub: string) => findAccount(sub, koa.oidc.client?.clientId),
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username', 'picture'],
      email: ['email', 'email_verified'],
      phone: ['phone_number'],
      ...APP_SCOPES,
    },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'phone', ...Object.keys(APP_SCOPES)],
    // The claims of the granted scopes go into the ID token too, not only userinfo.
    conformIdTokenClaims: false,
    // Only what the apps can use: the code flow (with PKCE) and refresh, the client secret in the
    // Authorization header or the form body, or no secret for a public client (clients.ts). Nothing
    // implicit, no id_token or none response type.
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    pkce: { required: () => true },
    // The redirect_uri sent to the authorization endpoint is sent again at the token endpoint, even
    // by an app with one callback URL (RFC 6749 §4.1.3).
    allowOmittingSingleRegisteredRedirectUri: false,
    // The same list the console's API checks DPoP proofs with (dpop.ts).
    enabledJWA: { dPoPSigningAlgValues: DPOP_ALGORITHMS },
    clientBasedCORS,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      // For the apps that switched it on (clients.ts), scoped to the app's privileges (machine.ts).
      clientCredentials: { enabled: true },
      resourceIndicators: machineResources(db),
      // An app introspects only its own tokens (another app's answer active:false, as an unknown
      // token would), and a person's token is active only while the person may still sign in.
      introspection: {
        enabled: true,
        allowedPolicy: async (_koa, client, token) => {
          if (token.clientId !== client.clientId) return false;
          // A machine token stops counting when the app switches client_credentials off.
          if (token.kind === 'ClientCredentials') return client.grantTypeAllowed('client_credentials');
          const person = 'accountId' in token ? token.accountId : undefined;
          return !person || (await findAccount(person, undefined)) !== undefined;
        },
      },
      rpInitiatedLogout: { enabled: true, logoutSource },
      // The logout tokens go through the outbox, with retries (backchannel.ts).
      backchannelLogout: { enabled: true },
    },
    // The grant of this provider session or the person's standing one (console-login.ts), decided
    // after the login prompt's checks.
    loadExistingGrant: existingGrant(ctx, interactionPolicy.get('login')!),
    // A trusted app's request, from a browser signed in to the console, is allowed at once: the
    // browser goes straight back to the provider instead of the consent page. Unless the app asks
    // prompt=consent (as a refresh token needs): the person then allows it on the page (OpenID
    // Connect Core 3.1.2.1).
    interactions: {
      policy: interactionPolicy,
      url: async (koa, interaction) => {
        const live = await consolePerson(ctx, koa);
        const page = `${CONSENT_PAGE}?uid=${encodeURIComponent(interaction.uid)}`;
        const asksConsent = String(interaction.params.prompt ?? '')
          .split(' ')
          .includes('consent');
        if (!live || asksConsent || !(await isTrusted(db, String(interaction.params.client_id ?? '')))) return page;
        const signIn = await consoleSignIn(ctx, live.sessionId, live.user);
        // An app asking for a fresh sign-in goes through the page, which asks for one.
        return freshEnough(interaction, signIn, Date.now()) ? finishInteraction(koa.oidc.provider, ctx, interaction.uid, signIn, true, koa.ip) : page;
      },
    },
    // A refresh token only when the app asked for offline_access and the person allowed it (the
    // provider's default; offline_access counts with prompt=consent only); it is replaced on every
    // use, and a replaced one coming back (stolen, or replayed) revokes the whole grant.
    rotateRefreshToken: true,
    ttl: {
      // A token for an app's own API may live shorter (a JWT, which cannot be revoked: machine.ts).
      AccessToken: (_koa, token) => token.resourceServer?.accessTokenTTL ?? hour,
      ClientCredentials: (_koa, token) => token.resourceServer?.accessTokenTTL ?? hour,
      AuthorizationCode: 60,
      IdToken: hour,
      Interaction: hour,
      Grant: 14 * 24 * hour,
      Session: 14 * 24 * hour,
      // A public client's are shorter, and rotation does not extend them (public-clients.ts).
      RefreshToken: refreshTokenTTL(14 * 24 * hour),
    },
    formats: { customizers: { jwt: onlyHeldPrivileges(ctx.db) } },
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
  private static readonly shared = new WeakMap<Ctx, OidcProvider>();

  /** The one provider of a server (its mount and the API calls that check app tokens share it). */
  static of(ctx: Ctx): OidcProvider {
    let provider = OidcProvider.shared.get(ctx);
    if (!provider) OidcProvider.shared.set(ctx, (provider = new OidcProvider(ctx)));
    return provider;
  }

  private built: Promise<{ provider: Provider; refreshGrants: ReturnType<typeof refreshGrants> }> | undefined;

  private constructor(private readonly ctx: Ctx) {}

  private build(): Promise<{ provider: Provider; refreshGrants: ReturnType<typeof refreshGrants> }> {
    // A build that failed (the database was away at the first request) is not kept: the next
    // request builds again.
    this.built ??= this.buildProvider().catch((error: unknown) => {
      this.built = undefined;
      throw error;
    });
    return this.built;
  }

  async get(): Promise<Provider> {
    return (await this.build()).provider;
  }

  /** The refresh grants answered without the provider's pipeline (refresh-grant.ts). */
  async refreshGrants(): Promise<ReturnType<typeof refreshGrants>> {
    return (await this.build()).refreshGrants;
  }

  private async buildProvider() {
    const library = await oidcLibrary();
    const db = oidcDb(this.ctx.db);
    const storage = payloadStorage(
      db,
      this.ctx.engine,
      recordingAppSignIns(this.ctx, () => library.default.ctx),
      recordingGrantEnds(this.ctx, () => library.default.ctx),
    );
    const findAccount = accountFinder(this.ctx);
    const provider = new library.default(this.ctx.site.issuer(), await configuration(this.ctx, library, storage, findAccount));
    provider.proxy = true;
    signInFromConsole(provider, this.ctx);
    answerUnavailableDatabaseAs503(provider);
    provider.use(formPostPolicy);
    provider.use(unauthorizedGrantType);
    provider.use(spendCodeOnFailedExchange);
    provider.use(noIntrospectionForPublicClients);
    provider.use(openEndpointsCORS(oidcDb(this.ctx.db)));
    provider.use(endConsoleSessionOnLogout(this.ctx));
    // The innermost: a failed write of the held tokens is answered by the middlewares above.
    provider.use(storage.writeHeldBeforeAnswer);
    sendProviderLogoutsThroughOutbox(provider, oidcDb(this.ctx.db));
    const { engine } = this.ctx;
    const { consumeWritingHeld } = storage;
    return { provider, refreshGrants: refreshGrants({ db, engine, provider, findAccount, consumeWritingHeld, InvalidGrant: library.errors.InvalidGrant }) };
  }
}
