// Front-channel Single Logout: when a person signs out in a browser, the apps that registered a
// browser-only Single Logout service (HTTP-Redirect or HTTP-POST) are visited one after the other.
// The sign-out (server/routes/auth.ts) queues them under a new chain (sessions.ts), bound to that
// browser (chain-browser.ts), and answers `appLogoutURL`, this chain's step: GET
// /api/saml/logout/{chain}, from that browser only, signs a LogoutRequest for the current app's
// session and sends the browser there with the chain as RelayState. The step is done only when that
// app's LogoutResponse answers that very LogoutRequest (logout.ts, `stepAnswered`); the browser then
// goes on to the next app, and after the last to the console's sign-in page. An app that never
// answers keeps the chain at its step (a visit to the step URL sends it its LogoutRequest again)
// until the chain expires; the apps after it are then not told, as when no browser is there
// (docs/saml.md). A RelayState is only ever looked up as a chain, never followed as an address.
import type { Ctx } from '../context';
import { digest, sameDigest } from '../auth/secrets';
import { logoutRequestFor, recordLogoutSent, redirectUrlFor, type LogoutTarget } from './logout-requests';
import { chainPath, isChainId } from './chain-browser';
import { SamlError } from './xml';

/** Where the browser goes after the last app. */
export const SIGNED_OUT_PAGE = '/login';

export type FrontChannelStep =
  { kind: 'redirect'; location: string } | { kind: 'post'; url: string; fields: Record<string, string> } | { kind: 'done'; location: string };

/** The ID of the LogoutRequest a step sends: derived from the chain and the session it ends, so the
 *  app's LogoutResponse is matched to the step it answers without keeping more. */
const stepRequestId = (chainId: string, sessionIndex: string) => `_${digest(`${chainId}\n${sessionIndex}`)}`;

/** The chain's current step: its first app left (by SessionIndex), while the chain lives. */
const currentStep = (ctx: Ctx, chainId: string) =>
  ctx.db
    .selectFrom('samlFrontLogouts')
    .innerJoin('samlServiceProviders', 'samlServiceProviders.appId', 'samlFrontLogouts.appId')
    .select(['samlFrontLogouts.sessionIndex', 'samlFrontLogouts.appId', 'userId', 'nameId', 'samlFrontLogouts.nameIdFormat', 'sloUrl', 'sloBinding'])
    .where('chainId', '=', chainId)
    .where('expiresAt', '>', ctx.now())
    .orderBy('samlFrontLogouts.sessionIndex')
    .executeTakeFirst();

const removeStep = (ctx: Ctx, chainId: string, sessionIndex: string) =>
  ctx.db.deleteFrom('samlFrontLogouts').where('chainId', '=', chainId).where('sessionIndex', '=', sessionIndex).executeTakeFirst();

/** The chain's step URL, when the chain has apps to visit. */
export async function chainUrl(ctx: Ctx, chainId: string): Promise<string | undefined> {
  if (!isChainId(chainId)) return undefined;
  return (await currentStep(ctx, chainId)) ? `${ctx.site.origin()}${chainPath(chainId)}` : undefined;
}

/** For the browser that owns the chain (`owned`), where it carries the current app's signed
 *  LogoutRequest; with no app left, or for anyone else, the signed-out page. */
export async function nextStep(ctx: Ctx, chainId: string, owned: boolean): Promise<FrontChannelStep> {
  const done = { kind: 'done', location: SIGNED_OUT_PAGE } as const;
  if (!owned || !isChainId(chainId)) return done;
  await ctx.db.deleteFrom('samlFrontLogouts').where('expiresAt', '<=', ctx.now()).execute();
  for (;;) {
    const row = await currentStep(ctx, chainId);
    if (!row) return done;
    // An app that left browser logout meanwhile is not visited (a SOAP one was told by the outbox).
    if (!row.sloUrl || row.sloBinding === 'SOAP') {
      await removeStep(ctx, chainId, row.sessionIndex);
      continue;
    }
    const target: LogoutTarget = { ...row, sloUrl: row.sloUrl };
    const binding = row.sloBinding === 'HTTP-POST' ? 'HTTP-POST' : 'HTTP-Redirect';
    const requestId = stepRequestId(chainId, row.sessionIndex);
    await ctx.audit.change(() => recordLogoutSent(ctx, target, binding, true));
    if (binding === 'HTTP-Redirect') return { kind: 'redirect', location: await redirectUrlFor(ctx, target, chainId, requestId) };
    const { xml } = await logoutRequestFor(ctx, target, requestId);
    return { kind: 'post', url: target.sloUrl, fields: { SAMLRequest: Buffer.from(xml).toString('base64'), RelayState: chainId } };
  }
}

/** The app `appId` answered the chain's current step with a (verified) LogoutResponse to
 *  `inResponseTo`: the step is done; answers where the browser goes next. A response from another
 *  app, or to another request, moves nothing (SamlError); a chain that is over leads to the
 *  signed-out page. */
export async function stepAnswered(ctx: Ctx, chainId: string, appId: string, inResponseTo: string): Promise<string> {
  const row = isChainId(chainId) ? await currentStep(ctx, chainId) : undefined;
  if (!row) return SIGNED_OUT_PAGE;
  if (row.appId !== appId || !sameDigest(stepRequestId(chainId, row.sessionIndex), inResponseTo))
    throw new SamlError('This LogoutResponse does not answer the LogoutRequest this sign-out sent to the app');
  await removeStep(ctx, chainId, row.sessionIndex);
  return (await chainUrl(ctx, chainId)) ?? SIGNED_OUT_PAGE;
}
