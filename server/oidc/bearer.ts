// An app calling the console's API for a person with the access token our provider issued to it
// (`Authorization: Bearer <token>`, or `Authorization: DPoP <token>` with a `DPoP` proof for a
// token bound to a key: dpop.ts): the token is looked up through the provider (unknown,
// expired or revoked tokens are refused; client_credentials tokens carry no person and are not
// access tokens), the app must still be a client, and the person must still be able to sign in.
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { Status } from '../../src/core/enums';
import { isPlatformAdmin } from '../auth/actor';
import { unauthorized } from '../http/errors';
import { carriesBearer } from '../http/route';
import type { OidcProvider } from './provider';
import { InvalidProof, proofKeyThumbprint } from './dpop';

/** An app's access token as the request presents it. */
export interface PresentedToken {
  scheme: 'Bearer' | 'DPoP';
  /** '' when the header is malformed. */
  value: string;
  /** The DPoP header (the proof), if any. */
  proof: string | undefined;
  method: string;
  /** The request's public URL without its query (what a DPoP proof's htu names). */
  url: string;
}

/** The token of an `Authorization: Bearer …` or `Authorization: DPoP …` header, if the request carries one. */
export function presentedToken(request: FastifyRequest, origin: string): PresentedToken | undefined {
  if (!carriesBearer(request)) return undefined;
  const [, scheme, value] = /^(Bearer|DPoP) ([\w.~+/-]+=*)$/i.exec(request.headers.authorization ?? '') ?? [];
  const proof = request.headers.dpop;
  return {
    scheme: scheme?.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer',
    value: value ?? '',
    proof: typeof proof === 'string' ? proof : undefined,
    method: request.method,
    url: origin + (request.raw.url ?? '').split('?')[0],
  };
}

/** The person an app's access token speaks for, with what the menus need to know about them. */
export interface AppTokenHolder {
  appId: string;
  person: { id: string; platformAdmin: boolean; ownedApps: { id: string }[] };
}

export async function appTokenHolder(ctx: Ctx, oidc: OidcProvider, presented: PresentedToken): Promise<AppTokenHolder> {
  const refused = unauthorized('The access token is not valid (expired, revoked, or not issued to an app)');
  if (!presented.value) throw refused;
  const provider = await oidc.get();
  const token = await provider.AccessToken.find(presented.value);
  if (!token?.accountId || !token.clientId || token.isExpired) throw refused;
  // A token bound to a key counts only with a proof of that key (RFC 9449 §7.1); an unbound one only as Bearer.
  if ((presented.scheme === 'DPoP') !== Boolean(token.jkt)) throw refused;
  if (token.jkt) {
    if (!presented.proof) throw refused;
    const thumbprint = await proofKeyThumbprint(provider, presented.proof, { ...presented, accessToken: presented.value, clientId: token.clientId }).catch(
      (error: unknown) => {
        if (error instanceof InvalidProof) throw refused;
        throw error;
      },
    );
    if (thumbprint !== token.jkt) throw refused;
  }
  const grant = token.grantId ? await provider.Grant.find(token.grantId) : undefined;
  if (!grant || grant.accountId !== token.accountId || grant.clientId !== token.clientId) throw refused;
  if (!(await provider.Client.find(token.clientId))) throw refused;
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', token.accountId).executeTakeFirst();
  if (!user || user.availabilityStatus !== Status.Enable) throw refused;
  const ownedApps = await ctx.db.selectFrom('appAdmins').select('appId as id').where('userId', '=', user.id).execute();
  return { appId: token.clientId, person: { id: user.id, platformAdmin: isPlatformAdmin(user), ownedApps } };
}
