// A PATCH request's PatchOp message (RFC 7644 §3.5.2), applied by scimmy (SCIMMY.Messages.PatchOp:
// paths, value filters such as members[value eq "…"], add/remove/replace, ops in any letter case).
// Bounded here first: a provisioning client sends a few operations with short paths. Values are
// read as clients mean them first (server/scim/lenient.ts: "False", a first e-mail by a filtered path).
import SCIMMY from 'scimmy';
import { coerced, ScimError } from './errors';
import { attributeAt, namedElement, asMeant } from './lenient';

const MAX_OPERATIONS = 100;
const MAX_PATH_LENGTH = 300;
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Operation = { op?: unknown; path?: unknown; value?: unknown };
type Resource = InstanceType<typeof SCIMMY.Schemas.User> | InstanceType<typeof SCIMMY.Schemas.Group>;

/** Values with their null sub-attributes left out: null is "unassigned" (RFC 7643 §2.5), and Entra
 *  ID names members as {"$ref": null, "value": "…"}, which scimmy would otherwise compare as
 *  `$ref eq null` and never find among members that have a $ref. */
function withoutNulls(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry: unknown) =>
    entry && typeof entry === 'object' && !Array.isArray(entry) ? Object.fromEntries(Object.entries(entry).filter(([, field]) => field !== null)) : entry,
  );
}

/** The message's operations, checked for size and with their values read as meant. */
function operationsOf(body: unknown, definition: SCIMMY.Types.SchemaDefinition): Operation[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ScimError(400, 'invalidSyntax', 'The body must be one PatchOp message');
  const { Operations: operations } = body as { Operations?: unknown };
  if (Array.isArray(operations) && operations.length > MAX_OPERATIONS)
    throw new ScimError(400, 'invalidSyntax', `At most ${MAX_OPERATIONS} operations per request`);
  // Checked as a whole by scimmy (schemas, op names, paths) before anything is applied.
  coerced(() => new SCIMMY.Messages.PatchOp(body as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0]));
  return (operations as Operation[]).map((operation) => {
    const path = typeof operation.path === 'string' ? operation.path : undefined;
    if (path && path.length > MAX_PATH_LENGTH) throw new ScimError(400, 'invalidPath', `A path is longer than ${MAX_PATH_LENGTH} characters`);
    if (!('value' in operation)) return operation;
    return { ...operation, value: asMeant(path ? attributeAt(definition, path) : definition, withoutNulls(operation.value)) };
  });
}

/** `operation` applied to `resource` (the resource itself when it changed nothing). */
async function applied<R extends Resource>(resource: R, operation: Operation, index: number): Promise<R> {
  try {
    const message = coerced(
      () => new SCIMMY.Messages.PatchOp({ schemas: [PATCH_OP], Operations: [operation] } as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0]),
    );
    return (await message.apply(resource)) ?? resource;
  } catch (error) {
    // Each operation is applied on its own: name its place in the whole message.
    if (error instanceof SCIMMY.Types.Error) error.message = error.message.replace(/of operation 1 /, `of operation ${index} `);
    throw error;
  }
}

/** An add or replace of a value named by a filter the resource has no value for: the value made.
 *  `emails[type eq "work"].value` = "a@b.c" → add emails [{type: "work", value: "a@b.c"}]. */
function makingNamedValue(operation: Operation): Operation | undefined {
  const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : '';
  const named = typeof operation.path === 'string' && (op === 'add' || op === 'replace') ? namedElement(operation.path) : undefined;
  if (!named) return undefined;
  const { value } = operation;
  if (!named.sub && (value === null || typeof value !== 'object' || Array.isArray(value))) return undefined;
  const element = named.sub ? { ...named.element, [named.sub]: value } : { ...named.element, ...(value as object) };
  return { op: 'add', path: named.attribute, value: [element] };
}

/** `resource` with the PatchOp message `body` applied, one operation after the other. */
export async function applyPatch<R extends Resource>(body: unknown, resource: R): Promise<R> {
  const definition = (resource.constructor as typeof SCIMMY.Schemas.User | typeof SCIMMY.Schemas.Group).definition;
  let current = resource;
  for (const [at, operation] of operationsOf(body, definition).entries()) {
    try {
      current = await applied(current, operation, at + 1);
    } catch (error) {
      const making = error instanceof SCIMMY.Types.Error && error.scimType === 'noTarget' ? makingNamedValue(operation) : undefined;
      if (!making) throw error;
      current = await applied(current, making, at + 1);
    }
  }
  return current;
}
