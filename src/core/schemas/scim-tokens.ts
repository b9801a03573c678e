// The SCIM provisioning tokens of tenants (Operations → Provisioning (SCIM)): the list, a new token
// (its secret answered once), and a token as answered (never its secret or hash).
import * as v from 'valibot';
import { id, pageQueryFields, pagedList, transformedPassword } from './common';
import { INVISIBLE_CHARACTERS } from '../validation/visible-text';

/** A token's name: what the audit log shows as the actor of its calls. */
export const scimTokenName = v.pipe(
  v.string('rule.required'),
  v.regex(new RegExp(`^[^\\s${INVISIBLE_CHARACTERS}][^${INVISIBLE_CHARACTERS}]{0,48}[^\\s${INVISIBLE_CHARACTERS}]$`), 'rule.scimTokenName'),
);

export const scimTokenListQuery = v.object({
  ...pageQueryFields,
  /** Only the tokens of this tenant. */
  tenantId: v.optional(id),
});

/** `currentPassword`: the caller's own (transformed), re-checked before a long-lived credential is
 *  made (server/services/scim-tokens.ts): a borrowed session alone makes none. */
export const scimTokenCreateBody = v.object({ tenantId: id, name: scimTokenName, currentPassword: v.optional(transformedPassword) });

export const scimToken = v.object({
  id: v.string(),
  tenantId: v.string(),
  tenantName: v.string(),
  name: v.string(),
  createdAt: v.number(),
  lastUsedAt: v.nullable(v.number()),
  revokedAt: v.nullable(v.number()),
});
export const scimTokenList = pagedList(scimToken);

/** A new token with its secret (the only time the secret is answered) and the SCIM base URL its
 *  provisioning client calls (this server's public origin + /scim/v2). */
export const scimTokenCreated = v.object({ token: scimToken, secret: v.string(), endpoint: v.string() });

export type ScimToken = v.InferOutput<typeof scimToken>;
export type ScimTokenCreated = v.InferOutput<typeof scimTokenCreated>;
