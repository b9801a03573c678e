// Third-party sign-in: starting a provider's flow, the complement's answer, and an administrator's
// update of a provider. (Apart from idp.ts: the provider settings dialog need not load the sign-in answer.)
import * as v from 'valibot';
import { idpBody } from './idp';
import { loginAnswer } from './auth';

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

/** The complement's answer: the sign-in's, and the typed addresses the provider did not vouch for
 *  that a code was sent to (each becomes the account's once that code is confirmed). */
export const complementAnswer = v.object({
  ...loginAnswer.entries,
  codeSentTo: v.optional(v.array(v.picklist(['email', 'mobilePhone']))),
});
