// Token introspection (RFC 7662) for an app that authenticates in the Authorization header (its
// registered method, client_secret_basic), answered here instead of by oidc-provider's endpoint:
// the provider's Koa pipeline around the same two statements made a call cost about 0.75 ms of
// server CPU, twice what the aim of 2 000 introspections/s on two cores allows (bench/FINDINGS.md).
// The rules are the provider's own (actions/introspection.js, helpers/token_find.js), on the rows
// its storage adapter writes, and a test holds this endpoint's answers equal to the provider's:
// only a live token of the asking app, whose grant and (for a token that ends with it) provider
// session still stand, whose person may still sign in, and a machine token only while the app may
// use client_credentials. Every request this module does not authenticate (no or another kind of
// client authentication, an unknown client or a wrong secret, a browser's request with an Origin)
// goes to the provider, which answers it, errors included.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import type { Kysely } from 'kysely';
import type { AdapterPayload } from 'oidc-provider';
import type { Engine } from '../db/connect';
import { clientLookup } from './clients';
import { basicFromServer, secretMatches } from './client-basic';
import { readBody } from './request-body';
import { type JoinedRow, maySignIn, personOf, tokenWithGrantStatement } from './read-ahead';
import { couldBeStored, type OidcDatabase } from './tables';

type Answer = { status: number; body: Record<string, unknown> };
type Payload = Record<string, unknown>;

/** The kinds of token an app may introspect, and the order they are looked for, by hint. */
const LOOKUP_ORDER: Record<string, readonly string[]> = {
  access_token: ['AccessToken', 'ClientCredentials', 'RefreshToken'],
  refresh_token: ['RefreshToken', 'AccessToken', 'ClientCredentials'],
};
const TOKEN_TYPE_URN = 'urn:ietf:params:oauth:token-type:';

const invalidRequest = (description: string): Answer => ({ status: 400, body: { error: 'invalid_request', error_description: description } });
const inactive: Answer = { status: 200, body: { active: false } };

/** What the provider's `Params` sees: a parameter given empty is absent. */
const param = (body: ParsedUrlQuery, name: string) => body[name] || undefined;

const names = new Intl.ListFormat('en', { type: 'conjunction' });

/** The provider's refusal of parameters given more than once, among `checked`. */
function givenTwice(body: ParsedUrlQuery, checked: string[]): Answer | undefined {
  const twice = checked.filter((name) => Array.isArray(body[name]));
  if (!twice.length) return undefined;
  return invalidRequest(`${names.format(twice.map((name) => `'${name}'`))} parameter${twice.length > 1 ? 's' : ''} must not be provided twice`);
}

/** A JWT's shape (a JSON object as the first of its dot-separated parts): the provider refuses
 *  those here, they are verified with the JWKS instead. Opaque token values have no dot. */
function structured(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 && parts.length !== 5) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null && !Array.isArray(header);
  } catch {
    return false;
  }
}

const epochNow = () => Math.floor(Date.now() / 1000);
const parsed = (json: string | null): Payload | undefined => (json === null ? undefined : (JSON.parse(json) as Payload));
/** A stored row is found only while its expiry is ahead (the adapter's rule). */
const liveRow = (expiresAt: number | null) => expiresAt === null || expiresAt > Date.now();

export function introspection(db: Kysely<OidcDatabase>, engine: Engine, issuer: () => string) {
  const findClient = clientLookup(db);
  const tokenWithGrant = tokenWithGrantStatement(db, engine);

  /** The app of a request this module answers: a client_secret_basic header with the right
   *  secret, from no browser. Undefined: the provider answers the request. */
  async function authenticate(headers: IncomingHttpHeaders): Promise<AdapterPayload | undefined> {
    const credentials = basicFromServer(headers);
    if (!credentials) return undefined;
    const client = await findClient(credentials.id);
    return secretMatches(client, credentials.secret) ? client : undefined;
  }

  /** The token's answer for `client`, looked for as each kind in turn (a value is one kind only). */
  async function answerFor(client: AdapterPayload, token: string, hint: string | undefined): Promise<Answer> {
    const order = LOOKUP_ORDER[hint?.startsWith(TOKEN_TYPE_URN) ? hint.slice(TOKEN_TYPE_URN.length) : (hint ?? '')] ?? LOOKUP_ORDER.access_token!;
    if (!couldBeStored(token)) return inactive;
    for (const model of order) {
      const [row] = (await db.executeQuery(tokenWithGrant({ model, id: token }))).rows;
      if (row && liveRow(row.expiresAt)) return activeAnswer(client, model, token, row);
    }
    return inactive;
  }

  function activeAnswer(client: AdapterPayload, model: string, value: string, row: JoinedRow): Answer {
    const token = JSON.parse(row.payload) as Payload;
    const now = epochNow();
    if (typeof token.exp === 'number' && token.exp <= now) return inactive;
    if (model === 'RefreshToken' && row.consumedAt !== null) return inactive;
    // A token that ends with its provider session: that session, of the same person and grant.
    if (token.expiresWithSession) {
      const session = liveRow(row.sessionExpiresAt) ? parsed(row.sessionPayload) : undefined;
      const authorizations = session?.authorizations as Record<string, { grantId?: string }> | undefined;
      if (!session || session.accountId !== token.accountId || authorizations?.[String(token.clientId)]?.grantId !== token.grantId) return inactive;
    }
    if (token.grantId) {
      const grant = liveRow(row.grantExpiresAt) ? parsed(row.grantPayload) : undefined;
      if (!grant || (typeof grant.exp === 'number' && grant.exp <= now)) return inactive;
      if (grant.clientId !== token.clientId || grant.accountId !== token.accountId) return inactive;
    }
    // The policy of provider.ts: the asking app's own tokens; a machine token while the app may
    // use client_credentials; a person's while they may sign in.
    if (token.clientId !== client.client_id) return inactive;
    if (model === 'ClientCredentials') {
      if (!(client.grant_types as string[] | undefined)?.includes('client_credentials')) return inactive;
    } else if (token.accountId && !maySignIn(personOf(row))) return inactive;
    const proofOfPossession = token.jkt || token['x5t#S256'];
    return {
      status: 200,
      body: {
        active: true,
        ...(token.accountId ? { sub: token.accountId } : {}),
        ...(token.extra as Payload | undefined),
        client_id: token.clientId,
        exp: token.exp,
        iat: token.iat,
        sid: token.sid,
        iss: issuer(),
        jti: token.jti !== value ? token.jti : undefined,
        aud: token.aud,
        scope: token.scope || undefined,
        cnf: proofOfPossession ? { ...(token.jkt ? { jkt: token.jkt } : {}), ...(token['x5t#S256'] ? { 'x5t#S256': token['x5t#S256'] } : {}) } : undefined,
        token_type: model === 'RefreshToken' ? undefined : token.jkt ? 'DPoP' : 'Bearer',
      },
    };
  }

  /** The answer to an authenticated app's request: the provider's checks of the body, in its order. */
  async function answer(client: AdapterPayload, request: IncomingMessage): Promise<Answer> {
    const type = request.headers['content-type'];
    if (type !== undefined && type.split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded')
      return invalidRequest(`only application/x-www-form-urlencoded content-type bodies are supported on POST /token/introspection`);
    const text = await readBody(request);
    if (text === undefined) return invalidRequest('failed to parse the request body');
    const body = parseQuery(text.toString('utf8'));
    const clientParamsTwice = givenTwice(body, ['client_id', 'client_secret']);
    if (clientParamsTwice) return clientParamsTwice;
    if (param(body, 'client_secret') !== undefined) return invalidRequest('client authentication must only be provided using one mechanism');
    const id = param(body, 'client_id');
    if (id !== undefined && id !== client.client_id) return invalidRequest('client_id mismatch');
    const tokenParamsTwice = givenTwice(body, ['token', 'token_type_hint']);
    if (tokenParamsTwice) return tokenParamsTwice;
    const token = param(body, 'token') as string | undefined;
    if (token === undefined) return invalidRequest("missing required parameter 'token'");
    if (structured(token))
      return {
        status: 400,
        body: { error: 'unsupported_token_type', error_description: 'Structured JWT Tokens cannot be introspected via the introspection_endpoint' },
      };
    return answerFor(client, token, param(body, 'token_type_hint') as string | undefined);
  }

  return { authenticate, answer };
}
