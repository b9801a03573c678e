// Third-party sign-in: starting a provider's flow, and an administrator's update of a provider.
import * as v from 'valibot';
import { idpBody } from './idp';

export const providerStartQuery = v.object({ redirect: v.optional(v.pipe(v.string(), v.maxLength(2000, 'rule.maxLength?max=2000'))) });

/** Every field optional; config keys given replace the stored ones, a blank value keeps the stored one
 *  (so the write-only client secret survives edits that do not retype it). */
export const idpUpdateBody = v.object({
  name: v.optional(idpBody.entries.name),
  icon: idpBody.entries.icon,
  type: v.optional(idpBody.entries.type),
  config: v.optional(idpBody.entries.config),
  enabled: v.optional(v.boolean('rule.required')),
});
