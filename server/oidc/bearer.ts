// An app calling the console's API for a person with the access token our provider issued to it
// (`Authorization: Bearer <token>`): the token is looked up through the provider (unknown,
// expired or revoked tokens are refused; client_credentials tokens carry no person and are not
// access tokens), the app must still be a client, and the person must still be able to sign in.
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { Status } from '../../src/core/enums';
import { isPlatformAdmin } from '../auth/actor';
import { unauthorized } from '../http/errors';
import { carriesBearer } from '../http/route';
import type { OidcProvider } from './provider';

/** The token of an `Authorization: Bearer …` header ('' when malformed), if the request carries one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  if (!carriesBearer(request)) return undefined;
  return /^Bearer ([\w.~+/-]+=*)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
}

/** The person an app's access token speaks for, with what the menus need to know about them. */
export interface AppTokenHolder {
  appId: string;
  person: { id: string; platformAdmin: boolean; ownedApps: { id: string }[] };
}

export async function appTokenHolder(ctx: Ctx, oidc: OidcProvider, value: string): Promise<AppTokenHolder> {
  const refused = unauthorized('The access token is not valid (expired, revoked, or not issued to an app)');
  if (!value) throw refused;
  const provider = await oidc.get();
  const token = await provider.AccessToken.find(value);
  if (!token?.accountId || !token.clientId || token.isExpired) throw refused;
  const grant = token.grantId ? await provider.Grant.find(token.grantId) : undefined;
  if (!grant || grant.accountId !== token.accountId || grant.clientId !== token.clientId) throw refused;
  if (!(await provider.Client.find(token.clientId))) throw refused;
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', token.accountId).executeTakeFirst();
  if (!user || user.availabilityStatus !== Status.Enable) throw refused;
  const ownedApps = await ctx.db.selectFrom('appAdmins').select('appId as id').where('userId', '=', user.id).execute();
  return { appId: token.clientId, person: { id: user.id, platformAdmin: isPlatformAdmin(user), ownedApps } };
}
