// The console sign-in is the provider's login. A browser signed in to the console but not to the
// provider (no provider session yet: the person has not used an app in this browser, or its
// provider session ended) is, at the authorization endpoint, signed in to the provider as that
// person, since their console sign-in. So silent sign-in (prompt=none, as oidc-client-ts's
// signinSilent asks) gets a code for a trusted app or an app this person allowed before (a
// standing grant, from any browser), `consent_required` for any other app, and `login_required`
// without a console session, also where the browser still has a provider session (an app used
// earlier) whose console session ended or went idle (signedOutOfConsole). The provider's own checks
// stay as they were: a sign-in older than max_age or an id_token_hint of someone else
// (login_required, or the sign-in page), prompt=login (the page), a person who can no longer sign in
// (provider.ts), another person's provider session in this browser (the provider signs it out first).
import type Provider from 'oidc-provider';
import type { Grant, interactionPolicy, KoaContextWithOIDC } from 'oidc-provider';
import type { Ctx } from '../context';
import type { ResolvedSession } from '../auth/sessions';
import { sessionCookieName } from '../auth/gate';
import { lockByName } from '../db/named-lock';
import { clientGrantIds } from './client-grants';
import { isTrusted } from './clients';
import { allowApp, consoleSignIn } from './interactions';
import { oidcDb } from './tables';

const people = new WeakMap<object, Promise<ResolvedSession | undefined>>();

/** The person signed in to the console in this browser (its session cookie), if any; read once a request. */
export function consolePerson(ctx: Ctx, koa: KoaContextWithOIDC): Promise<ResolvedSession | undefined> {
  let person = people.get(koa);
  if (!person) {
    const secret = koa.cookies.get(sessionCookieName(ctx.config), { signed: false });
    person = secret ? ctx.sessions.resolve(secret, 'cookie') : Promise.resolve(undefined);
    people.set(koa, person);
  }
  return person;
}

/** Makes the provider's sessions at its authorization endpoint start from the console's (above).
 *  oidc-provider has no option for a session kept outside it; its sessions are loaded by
 *  `Session.get`, which this wraps. */
export function signInFromConsole(provider: Provider, ctx: Ctx): void {
  const sessions = provider.Session;
  const load = sessions.get.bind(sessions);
  sessions.get = async (koa) => {
    const session = await load(koa);
    const oidc = (koa as KoaContextWithOIDC).oidc as KoaContextWithOIDC['oidc'] | undefined;
    if (session.accountId || oidc?.route !== 'authorization') return session;
    const live = await consolePerson(ctx, koa as KoaContextWithOIDC);
    if (live) {
      const { signedInAt } = await consoleSignIn(ctx, live.sessionId, live.user);
      session.loginAccount({ accountId: live.user.id, loginTs: Math.floor(signedInAt / 1000) });
      // Kept (the provider saves a touched session when it answers, and sets its cookie): an
      // interaction this request starts is bound to it, and its resume must find it.
      Object.assign(session, { touched: true });
    }
    return session;
  };
}

/** A check of the provider's login prompt: a provider session (an app used earlier in this browser)
 *  counts only while its person is signed in to the console here. Once that console session ended
 *  or went idle, or someone else signed in to it, the person signs in again (`login_required` for
 *  prompt=none), not `consent_required` as for a signed-in person. An answer of the console's page
 *  (a resumed interaction) brings its own sign-in. */
export function signedOutOfConsole(ctx: Ctx, Check: typeof interactionPolicy.Check): interactionPolicy.Check {
  return new Check('console_signed_out', 'the browser is no longer signed in to the console as this person', 'login_required', async (koa) => {
    const { session, result } = koa.oidc;
    if (!session?.accountId || result?.login) return false;
    return (await consolePerson(ctx, koa))?.user.id !== session.accountId;
  });
}

/** The newest grant of `personId` to `clientId`, from any browser. */
async function standingGrant(provider: Provider, ctx: Ctx, personId: string, clientId: string): Promise<Grant | undefined> {
  const [newest] = await clientGrantIds(oidcDb(ctx.db), clientId, personId);
  return newest ? provider.Grant.find(newest) : undefined;
}

/** Claims every ID token has: a request naming them asks for nothing to allow (as the provider's consent check). */
const ALWAYS = new Set(['sub', 'sid', 'auth_time', 'acr', 'amr', 'iss']);

/** Whether the provider's login prompt asks for a sign-in: any of its checks asks, as its policy
 *  runs them (oidc-provider's actions/authorization/interactions.js), on the request as it stands
 *  when its grant is loaded (the session, account, id_token_hint and claims are read by then). */
async function asksSignIn(login: interactionPolicy.Prompt, koa: KoaContextWithOIDC): Promise<boolean> {
  for (const check of login.checks) if (await check.check(koa)) return true;
  return false;
}

/**
 * The provider's `loadExistingGrant`: an earlier consent counts only while the same person is
 * signed in to the console (after a sign-out, or as someone else, the app's request goes through
 * the sign-in and consent page again): the grant of this provider session, or else the person's
 * standing grant. A trusted app asking silently (prompt=none, where no page can allow it) is
 * allowed here what it asks, as the page would allow it (with its `app.consent` record), but only
 * when the request will succeed: the provider loads the grant before its `login` prompt's checks
 * (a sign-in older than max_age, an id_token_hint or claims request naming someone else, …), so
 * those run here first, and a request they refuse (login_required) allows nothing. What the
 * `consent` prompt checks is what this allows.
 */
export function existingGrant(ctx: Ctx, login: interactionPolicy.Prompt) {
  return async (koa: KoaContextWithOIDC): Promise<Grant | undefined> => {
    const { oidc } = koa;
    const live = await consolePerson(ctx, koa);
    if (!live || !oidc.session || !oidc.client || live.user.id !== oidc.session.accountId) return undefined;
    const { provider, session, client } = oidc;
    const params = oidc.params ?? {};
    const grantId = (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
    const found = grantId ? await provider.Grant.find(grantId) : undefined;
    const existing = found ?? (await standingGrant(provider, ctx, live.user.id, client.clientId));
    const silentTrusted = oidc.prompts.has('none') && !(await asksSignIn(login, koa)) && (await isTrusted(oidcDb(ctx.db), client.clientId));
    if (!silentTrusted) return existing;
    const allowed = { clientId: client.clientId, params, claims: [...oidc.requestParamClaims].filter((claim) => !ALWAYS.has(claim)) };
    const allowedId = await ctx.audit.change(async () => {
      // Two silent requests at once (two tabs) make one grant: the second finds the first's.
      await lockByName(ctx, `oidc silent grant ${live.user.id} ${client.clientId}`);
      const current = found ?? (await standingGrant(provider, ctx, live.user.id, client.clientId));
      return allowApp(provider, ctx, allowed, current, live.user, koa.ip);
    });
    return provider.Grant.find(allowedId);
  };
}
