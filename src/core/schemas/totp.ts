// The personal center's authenticator app (TOTP) calls.
import * as v from 'valibot';
import { transformedPassword } from './common';

/** A current code of the authenticator app: six digits. */
export const totpCode = v.pipe(v.string('rule.required'), v.regex(/^\d{6}$/, 'rule.totpCode'));
export const totpCodeBody = v.object({ code: totpCode });

/** POST /user/totp: setting up an authenticator app starts with the current password (transformed),
 *  as adding a passkey does: an app set up is a proof for removing the person's other factors. */
export const totpEnrolBody = v.object({ password: transformedPassword });

export const totpStatus = v.object({ enabled: v.boolean() });

/** The only answer that carries the secret: at enrolment, before it is confirmed. */
export const totpEnrolment = v.object({ secret: v.string(), uri: v.string() });
