// Pieces the Users and Groups resources share: the validation of a body by the console's own
// schemas, the externalId a tenant's client gave a resource, and a resource as answered.
import SCIMMY from 'scimmy';
import type * as v from 'valibot';
import type { Ctx } from '../context';
import { validate } from '../../src/core/validation';
import { fieldError } from '../http/errors';
import type { ScimCaller } from './caller';
import { coerced, invalidValue } from './errors';
import { asMeant } from './lenient';
import type { ReadQuery } from './listing';
import { SCIM_BASE } from './base';

const MAX_EXTERNAL_ID_LENGTH = 255;

/** The body checked by a schema of src/core/schemas (the console's rules): a 400 names each field. */
export function checked<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = validate(schema, input);
  if (!result.success) throw fieldError(result.fields);
  return result.output;
}

/** Where a resource type's resources are, absolute (meta.location). */
export const locationOf = (ctx: Ctx, endpoint: '/Users' | '/Groups') => `${ctx.site.origin()}${SCIM_BASE}${endpoint}`;

type SchemaClass = typeof SCIMMY.Schemas.User | typeof SCIMMY.Schemas.Group;
const resourceOf = (schema: SchemaClass) => (schema === SCIMMY.Schemas.User ? SCIMMY.Resources.User : SCIMMY.Resources.Group);

/** `data` as answered, cut to the asked attributes; `id` and `schemas` (the resource's, and each
 *  extension's whose attributes are answered, by its URN) are always returned. */
export function present(schema: SchemaClass, data: { id: string }, location: string, projection: ReadQuery['projection'] = {}): Record<string, unknown> {
  const Resource = resourceOf(schema);
  const attributes = coerced(() => new Resource(undefined, projection).attributes);
  const out = coerced(() => new schema(data, 'out', location, attributes)) as unknown as Record<string, unknown>;
  const extensions = Object.keys(out).filter((key) => key.startsWith('urn:') && out[key] !== undefined);
  return { ...out, schemas: [schema.id, ...extensions], id: data.id };
}

/** A client's body read through scimmy's schema (400 invalidValue when a value has the wrong type;
 *  booleans written as text are read as booleans, server/scim/lenient.ts). */
export function incoming<S extends SchemaClass>(schema: S, body: unknown): InstanceType<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new SCIMMY.Types.Error(400, 'invalidSyntax', 'The body must be one JSON object');
  return coerced(() => new schema(asMeant(schema.definition, body) as object, 'in')) as InstanceType<S>;
}

/** The externalId of a client's body, checked (absent or empty: none). Read before anything is
 *  written, so a refused body changes nothing. */
export function externalIdOf(resource: { externalId?: unknown }): string | undefined {
  const { externalId } = resource;
  if (externalId === undefined || externalId === null) return undefined;
  if (typeof externalId !== 'string' || externalId.length > MAX_EXTERNAL_ID_LENGTH) {
    throw invalidValue(`externalId must be a text of at most ${MAX_EXTERNAL_ID_LENGTH} characters`);
  }
  return externalId || undefined;
}

/** Keeps (or, undefined, forgets) the externalId the caller's client gave user or group `id`, with
 *  a `scim.link` record when it changes (part of the change running now); true when it changed. */
export async function setExternalId(ctx: Ctx, caller: ScimCaller, kind: 'user' | 'group', id: string, externalId: string | undefined): Promise<boolean> {
  const db = ctx.db;
  const links = kind === 'user' ? ('scimUserLinks' as const) : ('scimGroupLinks' as const);
  const idColumn = kind === 'user' ? ('userId' as const) : ('groupId' as const);
  const stored = await db.selectFrom(links).select('externalId').where('scopeId', '=', caller.tenantId).where(idColumn, '=', id).executeTakeFirst();
  if (stored?.externalId === externalId) return false;
  if (!externalId) {
    if (!stored) return false;
    await db.deleteFrom(links).where('scopeId', '=', caller.tenantId).where(idColumn, '=', id).execute();
  } else if (kind === 'user') {
    await db
      .insertInto('scimUserLinks')
      .values({ scopeId: caller.tenantId, userId: id, externalId })
      .onConflict((oc) => oc.columns(['scopeId', 'userId']).doUpdateSet({ externalId }))
      .execute();
  } else {
    await db
      .insertInto('scimGroupLinks')
      .values({ scopeId: caller.tenantId, groupId: id, externalId })
      .onConflict((oc) => oc.columns(['scopeId', 'groupId']).doUpdateSet({ externalId }))
      .execute();
  }
  await ctx.audit.record({
    action: 'scim.link',
    actor: caller.actor,
    target: { type: kind === 'user' ? 'user' : 'tenant', id },
    tenantId: caller.tenantId,
    ip: caller.ip,
    detail: { externalId: { from: stored?.externalId ?? null, to: externalId ?? null } },
  });
  return true;
}

/** An ISO time of an epoch-ms column (meta.created, meta.lastModified). */
export const isoTime = (ms: number) => new Date(Number(ms));
