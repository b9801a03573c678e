// The refresh_token grant of a confidential app authenticating with its secret in the Authorization
// header (client_secret_basic): the grant apps make most, once per access token's life for every
// signed-in person. Answered here without oidc-provider's HTTP pipeline: its Koa application, router
// and the token endpoint's middleware (CORS, body parsing, parameter assembly and duplicate checks,
// client authentication, error rendering) and ours around them cost about half of a grant's
// main-thread CPU, more than the grant itself (bench/FINDINGS.md). The grant is still the
// provider's: its own models read the token (with its session binding), the grant and the client,
// rotate the token (consume, then a new RefreshToken and AccessToken saved through the adapter) and
// issue the ID token (IdToken with the person's claims masked by the granted scopes), following its
// refresh_token handler (actions/grants/refresh_token.js, helpers/grant_common.js issueIdToken) step
// by step. What this module decides is only whether it answers: a request of exactly that shape
// whose token, grant, session and person all stand. Any other — another grant type or parameter,
// another client authentication, a browser's request (Origin), DPoP or attestation headers, a client
// or token bound to a certificate, key, resource or claims request, an unknown, foreign, expired or
// already used token, a revoked or expired grant, an ended session, a person who may no longer sign
// in — goes to the provider before anything is written, and the provider answers it as before
// (errors, and a reused token revoking its grant). A token used twice at once is consumed by one
// request only (the adapter's consume); the other's refusal (and the grant's revocation) is the
// provider's, as before; the winner's new tokens are committed with its consume, so that revocation
// deletes them too. One statement reads the client with the token, its grant, session and
// person (read-ahead.ts); the consume and the two new tokens' write follow in one transaction.
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Account } from 'oidc-provider';
import type { Engine } from '../db/connect';
import { type BasicCredentials, basicFromServer, secretMatches } from './client-basic';
import { clientWithTokenStatement, readClientWithToken } from './read-ahead';
import { PROVIDER_BODY_LIMIT } from './request-body';
import { couldBeStored, type OidcDatabase } from './tables';
import { requesterAddress } from './grant-end-record';

const GRANT_TYPE = 'refresh_token';
/** The only parameters of a request answered here (client_id may repeat the header's). */
const PARAMETERS = new Set(['grant_type', 'refresh_token', 'client_id']);

export type RefreshGrantAnswer = { status: number; body: Record<string, unknown> };

export interface RefreshGrantDeps {
  db: Kysely<OidcDatabase>;
  engine: Engine;
  provider: Provider;
  /** The provider's findAccount (provider.ts): the person while they may sign in, with their claims for the client. */
  findAccount: (accountId: string, clientId: string) => Promise<Account | undefined>;
  /** The adapter's consume of a token with the request's held token writes, in one transaction;
   *  false when another request consumed it first (adapter.ts). */
  consumeWritingHeld: (model: string, id: string) => Promise<boolean>;
  /** oidc-provider's InvalidGrant: the adapter's refusal of a token consumed by another request. */
  InvalidGrant: new (...args: never[]) => Error;
}

/** The media type of a form, in UTF-8 (the provider decodes other charsets itself). */
const isForm = (type: string | undefined) => /^application\/x-www-form-urlencoded\s*(;\s*charset="?utf-8"?\s*)?$/i.test(type ?? '');

export function refreshGrants({ db, engine, provider, findAccount, consumeWritingHeld, InvalidGrant }: RefreshGrantDeps) {
  const clientWithToken = clientWithTokenStatement(db, engine);

  /** The client's credentials when a request with these headers may be one answered here (its body
   *  is then read): no browser's, a client_secret_basic header, a UTF-8 form of a known length within
   *  the provider's limit, no proof-of-possession or attestation. */
  function accepts(headers: IncomingHttpHeaders): BasicCredentials | undefined {
    const length = headers['content-length'];
    const mayAnswer =
      isForm(headers['content-type']) &&
      length !== undefined &&
      /^\d+$/.test(length) &&
      Number(length) <= PROVIDER_BODY_LIMIT &&
      headers['transfer-encoding'] === undefined &&
      headers.dpop === undefined &&
      headers['oauth-client-attestation'] === undefined &&
      headers['oauth-client-attestation-pop'] === undefined;
    return mayAnswer ? basicFromServer(headers) : undefined;
  }

  /** The token a well-formed request of exactly this shape presents, with the header's credentials. */
  function presented(credentials: BasicCredentials, body: Buffer): (BasicCredentials & { token: string }) | undefined {
    const form = parseQuery(body.toString('utf8'));
    const { grant_type: grantType, refresh_token: token, client_id: clientId } = form;
    if (Object.keys(form).some((name) => !PARAMETERS.has(name))) return undefined;
    if (grantType !== GRANT_TYPE || typeof token !== 'string' || !token || (clientId !== undefined && clientId !== credentials.id)) return undefined;
    if (!couldBeStored(credentials.id) || !couldBeStored(token)) return undefined;
    return { ...credentials, token };
  }

  /**
   * The answer to a request whose headers `accepts` took, with these `credentials`, and whose body is
   * `body`: the new tokens, written before this resolves. Undefined: the provider answers the request
   * (this wrote nothing, or only what the adapter's consume writes when another request consumed the
   * token first: the grant's revocation). `ip`: the requester's address, for the record of a grant
   * this request's reuse ends.
   */
  async function answer(credentials: BasicCredentials, body: Buffer, ip: string): Promise<RefreshGrantAnswer | undefined> {
    const request = presented(credentials, body);
    if (!request) return undefined;
    const metadata = await readClientWithToken('RefreshToken', request.token, async () => {
      const { rows } = await db.executeQuery(clientWithToken({ appId: request.id, model: 'RefreshToken', id: request.token }));
      return rows[0];
    });
    if (!secretMatches(metadata, request.secret) || metadata?.token_endpoint_auth_method !== 'client_secret_basic') return undefined;
    // The Client, the token and the grant below come from that read (the adapter's read-ahead).
    const client = await provider.Client.find(request.id);
    if (!client?.grantTypeAllowed(GRANT_TYPE) || client.tlsClientCertificateBoundAccessTokens || client.dpopBoundAccessTokens) return undefined;

    // actions/grants/refresh_token.js, in its order.
    const refreshToken = await provider.RefreshToken.find(request.token, { ignoreExpiration: true });
    if (!refreshToken || refreshToken.clientId !== client.clientId || refreshToken.isExpired) return undefined;
    if (refreshToken['x5t#S256'] || refreshToken.jkt || refreshToken.attestationJkt) return undefined;
    if (refreshToken.resource !== undefined || refreshToken.rar !== undefined || refreshToken.claims !== undefined) return undefined;
    const grant = refreshToken.grantId ? await provider.Grant.find(refreshToken.grantId, { ignoreExpiration: true }) : undefined;
    if (!grant || grant.isExpired || grant.clientId !== client.clientId) return undefined;
    const account = await findAccount(refreshToken.accountId, client.clientId);
    if (!account || refreshToken.accountId !== grant.accountId || refreshToken.consumed) return undefined;

    // The new tokens are built (their writes held) and the ID token signed first; then the consume
    // and the two writes are one commit (consumeWritingHeld): nothing is stored unless this request
    // consumed the token.
    const rotated = new provider.RefreshToken({
      accountId: refreshToken.accountId,
      acr: refreshToken.acr,
      amr: refreshToken.amr,
      authTime: refreshToken.authTime,
      claims: refreshToken.claims,
      client,
      expiresWithSession: refreshToken.expiresWithSession,
      iiat: refreshToken.iiat,
      grantId: refreshToken.grantId!,
      gty: refreshToken.gty!,
      nonce: refreshToken.nonce,
      resource: refreshToken.resource,
      rotations: typeof refreshToken.rotations === 'number' ? refreshToken.rotations + 1 : 1,
      scope: refreshToken.scope!,
      sessionUid: refreshToken.sessionUid,
      sid: refreshToken.sid,
      rar: refreshToken.rar,
      'x5t#S256': refreshToken['x5t#S256'],
      jkt: refreshToken.jkt,
      attestationJkt: refreshToken.attestationJkt,
    });
    if (rotated.gty && !rotated.gty.endsWith(GRANT_TYPE)) rotated.gty = `${rotated.gty} ${GRANT_TYPE}`;
    const refreshTokenValue = await rotated.save();

    // helpers/grant_common.js createAccessToken, then the handler's scope (no resource: the token has none).
    const accessToken = new provider.AccessToken({
      accountId: account.accountId,
      client,
      expiresWithSession: rotated.expiresWithSession,
      grantId: rotated.grantId!,
      gty: rotated.gty!,
      sessionUid: rotated.sessionUid,
      sid: rotated.sid,
    });
    if (accessToken.gty && !accessToken.gty.endsWith(GRANT_TYPE)) accessToken.gty = `${accessToken.gty} ${GRANT_TYPE}`;
    const scopes = rotated.scopes;
    accessToken.claims = rotated.claims;
    accessToken.scope = grant.getOIDCScopeFiltered(scopes);
    const accessTokenValue = await accessToken.save();

    const tokens = {
      access_token: accessTokenValue,
      expires_in: accessToken.expiration,
      id_token: scopes.has('openid') ? await idToken(rotated, account, grant, scopes) : undefined,
      refresh_token: refreshTokenValue,
      scope: rotated.scope ? accessToken.scope : accessToken.scope || undefined,
      token_type: accessToken.tokenType,
    };
    if (!(await consumeWritingHeld('RefreshToken', request.token))) {
      // Consumed by another request meanwhile: the adapter's consume finds the reuse, revokes the
      // grant and refuses; the provider then answers the request as before.
      try {
        await requesterAddress.run(ip, () => refreshToken.consume());
      } catch (error) {
        if (error instanceof InvalidGrant) return undefined;
        throw error;
      }
      return undefined;
    }
    return { status: 200, body: Object.fromEntries(Object.entries(tokens).filter(([, value]) => value !== undefined)) };

    /** helpers/grant_common.js issueIdToken, for a token without a claims request (so an empty mask). */
    async function idToken(source: typeof rotated, person: Account, granted: typeof grant, within: Set<string>): Promise<string> {
      const rejected = granted!.getRejectedOIDCClaims();
      const token = new provider.IdToken(
        {
          ...(await person.claims('id_token', [...within].join(' '), {}, rejected)),
          sub: person.accountId,
          acr: source.acr,
          amr: source.amr,
          auth_time: source.authTime,
        },
        { client: client! },
      ) as InstanceType<Provider['IdToken']> & { scope: string; mask: Record<string, unknown>; rejected: string[] };
      // conformIdTokenClaims is off (provider.ts): the granted scopes' claims go into the ID token.
      token.scope = granted!.getOIDCScopeFiltered(within);
      token.mask = {};
      token.rejected = rejected;
      token.set('nonce', source.nonce);
      token.set('sid', source.sid);
      return token.issue({ use: 'idtoken' });
    }
  }

  return { accepts, answer };
}
