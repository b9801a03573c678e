// License calls (/license/*).
import * as v from 'valibot';

export const licenseStatus = v.object({
  status: v.picklist(['valid', 'missing', 'expired', 'invalid', 'over_limit']),
  licensee: v.optional(v.string()),
  expiresAt: v.optional(v.string()),
  userLimit: v.optional(v.number()),
  users: v.optional(v.number()),
});
