// Front-channel Single Logout: when a person signs out in a browser, the apps that registered a
// browser-only Single Logout service (HTTP-Redirect or HTTP-POST) are visited one after the other.
// The sign-out (server/routes/auth.ts) queues them under a new chain (sessions.ts) and answers
// `appLogoutURL`, this chain's step: GET /api/saml/logout/{chain} takes the next app, signs a
// LogoutRequest for its session and sends the browser there with the chain as RelayState; the
// app's LogoutResponse comes back to /api/saml/slo (logout.ts), which goes on with the chain named
// by the RelayState, and the last step ends on the console's sign-in page. A RelayState is only ever
// looked up as a chain, never followed as an address.
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../context';
import { logoutRequestFor, recordLogoutSent, redirectUrlFor, type LogoutTarget } from './logout-requests';
import { SAML_PATH } from './endpoints';

export const newChainId = () => randomBytes(24).toString('base64url');
const CHAIN_ID = /^[\w-]{32}$/;

/** Where the browser goes after the last app. */
export const SIGNED_OUT_PAGE = '/login';

export type FrontChannelStep =
  { kind: 'redirect'; location: string } | { kind: 'post'; url: string; fields: Record<string, string> } | { kind: 'done'; location: string };

/** The chain's step URL, when the chain has apps to visit. */
export async function chainUrl(ctx: Ctx, chainId: string): Promise<string | undefined> {
  if (!CHAIN_ID.test(chainId)) return undefined;
  const row = await ctx.db
    .selectFrom('samlFrontLogouts')
    .select('chainId')
    .where('chainId', '=', chainId)
    .where('expiresAt', '>', ctx.now())
    .executeTakeFirst();
  return row ? `${ctx.site.origin()}${SAML_PATH}/logout/${chainId}` : undefined;
}

/** Takes the chain's next app (one taker wins) and answers where the browser carries its signed
 *  LogoutRequest; with none left, the signed-out page. */
export async function nextStep(ctx: Ctx, chainId: string): Promise<FrontChannelStep> {
  const done = { kind: 'done', location: SIGNED_OUT_PAGE } as const;
  if (!CHAIN_ID.test(chainId)) return done;
  await ctx.db.deleteFrom('samlFrontLogouts').where('expiresAt', '<=', ctx.now()).execute();
  for (;;) {
    const row = await ctx.db
      .selectFrom('samlFrontLogouts')
      .innerJoin('samlServiceProviders', 'samlServiceProviders.appId', 'samlFrontLogouts.appId')
      .select(['samlFrontLogouts.sessionIndex', 'samlFrontLogouts.appId', 'userId', 'nameId', 'sloUrl', 'sloBinding'])
      .where('chainId', '=', chainId)
      .orderBy('samlFrontLogouts.sessionIndex')
      .executeTakeFirst();
    if (!row) return done;
    const take = () => ctx.db.deleteFrom('samlFrontLogouts').where('chainId', '=', chainId).where('sessionIndex', '=', row.sessionIndex).executeTakeFirst();
    if (!row.sloUrl || row.sloBinding === 'SOAP') {
      await take();
      continue;
    }
    const target: LogoutTarget = { appId: row.appId, userId: row.userId, nameId: row.nameId, sessionIndex: row.sessionIndex, sloUrl: row.sloUrl };
    const binding = row.sloBinding === 'HTTP-POST' ? 'HTTP-POST' : 'HTTP-Redirect';
    const taken = await ctx.audit.change(async () => {
      if (Number((await take()).numDeletedRows) !== 1) return false;
      await recordLogoutSent(ctx, target, binding, true);
      return true;
    });
    if (!taken) continue;
    if (binding === 'HTTP-Redirect') return { kind: 'redirect', location: await redirectUrlFor(ctx, target, chainId) };
    const { xml } = await logoutRequestFor(ctx, target);
    return { kind: 'post', url: target.sloUrl, fields: { SAMLRequest: Buffer.from(xml).toString('base64'), RelayState: chainId } };
  }
}
