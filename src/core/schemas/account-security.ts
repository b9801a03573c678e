// The personal center's account security calls: recovery codes (status, a new set confirmed with
// the current password) and signing oneself out everywhere.
import * as v from 'valibot';
import { transformedPassword } from './common';

export const recoveryCodeStatus = v.object({
  /** Whether the person may have codes: they have a passkey or an authenticator app. */
  available: v.boolean(),
  /** Unused codes of the current set. */
  remaining: v.number(),
  /** When the current set was generated (null: never). */
  generatedAt: v.nullable(v.number()),
});

/** A new set (the old one stops working), confirmed with the current (transformed) password. */
export const recoveryCodesBody = v.object({ password: transformedPassword });

/** The only answer that carries the codes: right after they were generated. */
export const recoveryCodes = v.object({ codes: v.array(v.string()) });

export const signOutEverywhereBody = v.object({
  /** Keep the session of this call (the others, and every app grant, end). */
  keepCurrent: v.boolean('rule.required'),
});

export const signedOutEverywhere = v.object({ revoked: v.number() });
