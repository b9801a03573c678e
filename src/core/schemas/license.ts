// License calls (/license/*).
import * as v from 'valibot';

export const licenseStatus = v.object({
  status: v.picklist(['valid', 'missing', 'expired', 'invalid', 'over_limit']),
  licensee: v.optional(v.string()),
  expiresAt: v.optional(v.string()),
  userLimit: v.optional(v.number()),
  users: v.optional(v.number()),
});

/** POST /license/auth: the license text to activate. */
export const licenseActivateBody = v.object({
  newLicense: v.pipe(v.string('rule.required'), v.trim(), v.nonEmpty('rule.required'), v.maxLength(8000, 'rule.license')),
});
