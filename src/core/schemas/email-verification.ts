// Email verification: the personal center asks for a link; the link lands on /verified/{code}.
import * as v from 'valibot';

export const verificationParams = v.object({ code: v.pipe(v.string('rule.required'), v.regex(/^[\w-]{20,100}$/, 'rule.code')) });

export const verifiedAnswer = v.object({ username: v.string(), email: v.string() });
