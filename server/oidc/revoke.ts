// Ends a person's access to every app at once: their grants and everything issued under them
// (authorization codes, access and refresh tokens) and their provider sessions. Called where the
// console ends the person's sessions: password reset or change, disabling or deleting the person,
// console sign-out. Sign-ins waiting for their second step end with it (server/auth/step-tickets.ts). A later refresh answers invalid_grant, the access token 401, and the browser's
// next authorization request goes through the sign-in page again; re-enabling revives nothing.
// The apps that registered a back-channel logout URI are told (backchannel.ts). The person's SAML
// sessions end with their grants, and the SAML apps are told (server/saml/sessions.ts); a browser
// sign-out passes its chain (`samlFrontChannel`) so that the browser visits the SAML apps that
// can be reached only through it.
import type { Kysely } from 'kysely';
import type { Ctx } from '../context';
import type { Database } from '../db/tables';
import { oidcDb } from './tables';
import { logoutTargetsOf, queueBackchannelLogouts } from './backchannel';
import { endPendingSignIns } from '../auth/step-tickets';
import { endSamlSessions } from '../saml/sessions';
import { clientGrantIds } from './client-grants';

/** Ends the person's app access (above); answers how many app sign-ins ended: OpenID Connect grants
 *  (one per app the person allowed) and SAML sessions. */
export async function revokeAppGrants(database: Kysely<Database>, personId: string, samlFrontChannel?: string): Promise<number> {
  const db = oidcDb(database);
  await queueBackchannelLogouts(db, personId, await logoutTargetsOf(db, personId));
  const grants = db.selectFrom('oidcPayloads').select('id').where('model', '=', 'Grant').where('accountId', '=', personId);
  const ended = await db
    .deleteFrom('oidcPayloads')
    .where((eb) => eb.or([eb('accountId', '=', personId), eb('grantId', 'in', grants)]))
    .returning('model')
    .execute();
  const samlSessions = await endSamlSessions(database, personId, samlFrontChannel);
  return ended.filter((row) => row.model === 'Grant').length + samlSessions;
}

/** What ending a person's access ended (see endEveryAccess). */
export interface EndedAccess {
  /** Console sessions. */
  sessions: number;
  /** OpenID Connect grants and SAML sessions. */
  appSignIns: number;
  /** Sign-ins waiting for their next step. */
  pendingSignIns: number;
}

/** Ends everything the person is signed in with: every console session (but `keepSessionId`), every
 *  app grant and every sign-in waiting for its next step. Answers how many of each ended. */
export async function endEveryAccess(ctx: Ctx, personId: string, keepSessionId?: string): Promise<EndedAccess> {
  const [sessions, appSignIns, pendingSignIns] = await Promise.all([
    ctx.sessions.revokeUser(personId, keepSessionId),
    revokeAppGrants(ctx.db, personId),
    endPendingSignIns(ctx.db, personId),
  ]);
  return { sessions, appSignIns, pendingSignIns };
}

/**
 * Ends every grant the app `clientId` holds and what was issued under them (codes, access and
 * refresh tokens); answers how many grants ended. Called when a confidential app becomes public: the
 * refresh tokens its secret guarded would otherwise refresh with no client authentication at all.
 * Its people sign in to it (and allow it) again.
 */
export async function endClientGrants(database: Kysely<Database>, clientId: string): Promise<number> {
  const db = oidcDb(database);
  const grantIds = await clientGrantIds(db, clientId);
  for (let start = 0; start < grantIds.length; start += GRANTS_PER_DELETE) {
    const some = grantIds.slice(start, start + GRANTS_PER_DELETE);
    await db
      .deleteFrom('oidcPayloads')
      .where((eb) => eb.or([eb('grantId', 'in', some), eb.and([eb('model', '=', 'Grant'), eb('id', 'in', some)])]))
      .execute();
  }
  return grantIds.length;
}

/** Grants per DELETE statement: each is a bound parameter, twice. */
const GRANTS_PER_DELETE = 1000;
