// A real OpenID Connect identity provider for third-party sign-in tests: a second oidc-provider on
// its own local port, with one client (us) and one person who approves at once (no login form:
// the tests are about our side of the flow).
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import type { Client } from './harness';

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** How many times the provider's approval ran. */
  approvals: number;
  stop(): Promise<void>;
}

export interface Person {
  sub: string;
  preferred_username: string;
  name: string;
  email: string;
  /** Whether the provider vouches for the email (absent: the claim is not sent). */
  email_verified?: boolean;
}

export async function startIdentityProvider(redirectUri: string, person: Person): Promise<IdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const issuer = `http://127.0.0.1:${address.port}`;
  const client = { client_id: 'iam-console', client_secret: 'idp-test-secret' };
  const provider = new Provider(issuer, {
    clients: [{ ...client, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    findAccount: async (_ctx, sub) => (sub === person.sub ? { accountId: sub, claims: () => ({ ...person }) } : undefined),
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['identity-provider-test-key'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  const handle = provider.callback();
  const idp: IdentityProvider = {
    issuer,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    approvals: 0,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      void handle(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: person.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      idp.approvals += 1;
      await provider.interactionFinished(req, res, { login: { accountId: person.sub }, consent: { grantId: await grant.save() } });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  return idp;
}

/** A browser's trip: our start (for provider `idpCode`) → the provider (its own cookies) → our
 *  callback; answers the /infoComplete address where it ends. `browser` keeps our cookies. */
export async function signInAtProvider(browser: Client, idpCode: string, redirect = '/profile/userInfo'): Promise<URL> {
  const jar = new Map<string, string>();
  const base = new URL(browser.base).origin;
  let location = new URL(`/api/interaction/idp/${idpCode}/authorize?redirect=${encodeURIComponent(redirect)}`, base);
  for (let hop = 0; hop < 10; hop++) {
    if (location.origin === base) {
      const response = await browser.raw('GET', location.pathname + location.search);
      const next = response.headers.get('location');
      if (!next) throw new Error(`${location.pathname}: ${response.status} ${await response.text()}`);
      location = new URL(next, location);
      if (location.pathname === '/infoComplete') return location;
      continue;
    }
    const response = await fetch(location, { redirect: 'manual', headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      jar.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
    }
    const next = response.headers.get('location');
    if (!next) throw new Error(`provider ${location.pathname}: ${response.status} ${await response.text()}`);
    location = new URL(next, location);
  }
  throw new Error('too many redirects');
}
