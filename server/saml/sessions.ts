// The sessions apps were given by SAML assertions (their SessionIndex), ended with the person's
// other app access (server/oidc/revoke.ts: signing out, disabling, deleting (before the delete,
// which cascades these rows), a password reset, an administrator ending their sessions, Single
// Logout from an app). Each app that registered a
// Single Logout service is told, as OpenID Connect apps are by the back-channel logout:
// - an app with a SOAP service: a signed LogoutRequest is queued for the outbox (back-channel.ts),
//   which reaches the app whether or not a browser is there;
// - an app with a browser-only service (HTTP-Redirect, HTTP-POST) is told only when the person
//   signs out in a browser (`frontChannel`, the id of the sign-out's chain, bound to that browser:
//   chain-browser.ts): the browser then visits each such app (front-channel.ts). Ended any other way, such an app is not told; its own session
//   lasts until it expires, and its next AuthnRequest finds the person signed out (docs/saml.md).
// The person's remembered consents end too, as their OpenID Connect grants do.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';

/** How long a browser sign-out may take to visit the apps. */
export const FRONT_CHANNEL_TTL_MS = 10 * 60_000;

/** Ends the person's SAML sessions (the apps told as above) and consents; answers how many sessions ended. */
export async function endSamlSessions(db: Kysely<Database>, personId: string, frontChannel?: string): Promise<number> {
  const sessions = await db
    .selectFrom('samlSessions')
    .innerJoin('samlServiceProviders', 'samlServiceProviders.appId', 'samlSessions.appId')
    .select([
      'samlSessions.sessionIndex',
      'samlSessions.appId',
      'samlSessions.nameId',
      'samlSessions.nameIdFormat',
      'samlServiceProviders.sloUrl',
      'samlServiceProviders.sloBinding',
    ])
    .where('samlSessions.userId', '=', personId)
    .execute();
  const now = Date.now();
  const told = sessions.filter((session) => session.sloUrl);
  const backChannel = told.filter((session) => session.sloBinding === 'SOAP');
  const browser = frontChannel ? told.filter((session) => session.sloBinding !== 'SOAP') : [];
  if (backChannel.length)
    await db
      .insertInto('samlLogoutDeliveries')
      .values(
        backChannel.map((session) => ({
          id: randomUUID(),
          appId: session.appId,
          userId: personId,
          nameId: session.nameId,
          nameIdFormat: session.nameIdFormat,
          sessionIndex: session.sessionIndex,
          status: 'queued',
          nextAttemptAt: null,
          error: null,
          createdAt: now,
        })),
      )
      .execute();
  if (browser.length)
    await db
      .insertInto('samlFrontLogouts')
      .values(
        browser.map((session) => ({
          chainId: frontChannel!,
          sessionIndex: session.sessionIndex,
          appId: session.appId,
          userId: personId,
          nameId: session.nameId,
          nameIdFormat: session.nameIdFormat,
          expiresAt: now + FRONT_CHANNEL_TTL_MS,
        })),
      )
      .execute();
  const { numDeletedRows } = await db.deleteFrom('samlSessions').where('userId', '=', personId).executeTakeFirst();
  await db.deleteFrom('samlConsents').where('userId', '=', personId).execute();
  return Number(numDeletedRows);
}
