// Third-party sign-in with an OpenID Connect provider (openid-client): the start sends the browser
// to the provider with PKCE, state and nonce; the callback checks them, exchanges the code, and
// leaves a provider ticket for /infoComplete (access info, then complement or straight sign-in).
// Flow and ticket are bound to the browser that started (./browser-binding).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as oidcTypes from 'openid-client';
import type { Ctx } from '../context';
import { createIdpTicket, TICKET_TTL_MS } from '../auth/third-party';
import { digest } from '../auth/secrets';
import { safeRedirect } from '../http/redirect';
import { linkPath } from '../http/link-path';
import { getProviderCallback } from '../../src/core/contract/idp';
import { ApiError } from '../http/errors';
import { discover, identityProvider, openidClient, scopeOf } from './provider-config';
import { idpFlowDb } from './tables';
import { bindBrowser, checkBrowser } from './browser-binding';

const FLOW_TTL_MS = 10 * 60_000;

/** Our callback, registered at the provider as the redirect URI. */
const callbackPath = (code: string) => linkPath(getProviderCallback, { params: { idpCode: code } });

export async function startFlow(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, code: string, redirect: string | undefined): Promise<string> {
  const provider = await identityProvider(ctx, code);
  const config = await discover(ctx, provider);
  const oidc = await openidClient();
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  // The binding outlives the flow by the ticket's lifetime: the ticket is redeemed with it too.
  const browserHash = bindBrowser(req, reply, code, FLOW_TTL_MS + TICKET_TTL_MS);
  const db = idpFlowDb(ctx.db);
  await db.deleteFrom('idpFlows').where('expiresAt', '<=', ctx.now()).execute();
  await db
    .insertInto('idpFlows')
    .values({
      stateHash: digest(state),
      browserHash,
      idpCode: code,
      codeVerifier: verifier,
      nonce,
      redirect: redirect ? safeRedirect(ctx, req, redirect) : null,
      expiresAt: ctx.now() + FLOW_TTL_MS,
    })
    .execute();
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: ctx.site.origin() + callbackPath(code),
    scope: scopeOf(provider),
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).href;
}

const refused = (message: string) => new ApiError(400, message);

/** Answers where the browser goes next: /infoComplete with the ticket. */
export async function finishFlow(ctx: Ctx, req: FastifyRequest, code: string): Promise<string> {
  const current = new URL(req.url, ctx.site.origin());
  const state = current.searchParams.get('state');
  if (!state) throw refused('The sign-in with the provider was not started here');
  const db = idpFlowDb(ctx.db);
  // Single use: the row is taken before the code is exchanged.
  const flow = await db.deleteFrom('idpFlows').where('stateHash', '=', digest(state)).returningAll().executeTakeFirst();
  if (!flow || flow.idpCode !== code || flow.expiresAt <= ctx.now()) {
    throw refused('The sign-in with the provider expired or was not started here');
  }
  checkBrowser(req, flow.browserHash);
  const config = await discover(ctx, await identityProvider(ctx, code));
  const oidc = await openidClient();
  let tokens: oidcTypes.TokenEndpointResponse & oidcTypes.TokenEndpointResponseHelpers;
  try {
    tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    req.log.warn({ idp: code, error: error instanceof Error ? error.message : String(error) }, 'third-party sign-in refused');
    throw refused('The identity provider did not confirm the sign-in');
  }
  const claims = tokens.claims()!;
  const info = tokens.access_token ? await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => undefined) : undefined;
  const source = { ...claims, ...info };
  const profile = Object.fromEntries(
    ['preferred_username', 'name', 'email', 'phone_number', 'picture'].filter((name) => typeof source[name] === 'string').map((name) => [name, source[name]]),
  );
  // Whether the provider vouches for the email: only then is it matched to a local account.
  if (typeof source.email_verified === 'boolean') profile.email_verified = source.email_verified;
  const ticket = await createIdpTicket(ctx, { idpCode: code, subject: claims.sub, profile, browserHash: flow.browserHash });
  const query = new URLSearchParams({ idpCode: code, token: ticket.token, access_ticket: ticket.accessTicket });
  if (flow.redirect) query.set('redirect', flow.redirect);
  return `/infoComplete?${query.toString()}`;
}
