// A PATCH request's PatchOp message (RFC 7644 §3.5.2), applied by scimmy (SCIMMY.Messages.PatchOp:
// paths, value filters such as members[value eq "…"], add/remove/replace). Bounded here first: a
// provisioning client sends a few operations with short paths.
import SCIMMY from 'scimmy';
import { coerced, ScimError } from './errors';

const MAX_OPERATIONS = 100;
const MAX_PATH_LENGTH = 300;

/** Values with their null sub-attributes left out: null is "unassigned" (RFC 7643 §2.5), and Entra
 *  ID names members as {"$ref": null, "value": "…"}, which scimmy would otherwise compare as
 *  `$ref eq null` and never find among members that have a $ref. */
function withoutNulls(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry: unknown) =>
    entry && typeof entry === 'object' && !Array.isArray(entry) ? Object.fromEntries(Object.entries(entry).filter(([, field]) => field !== null)) : entry,
  );
}

export function patchOp(body: unknown): SCIMMY.Messages.PatchOp {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ScimError(400, 'invalidSyntax', 'The body must be one PatchOp message');
  const operations = (body as { Operations?: unknown }).Operations;
  if (Array.isArray(operations)) {
    if (operations.length > MAX_OPERATIONS) throw new ScimError(400, 'invalidSyntax', `At most ${MAX_OPERATIONS} operations per request`);
    for (const operation of operations as { path?: unknown }[]) {
      if (typeof operation?.path === 'string' && operation.path.length > MAX_PATH_LENGTH)
        throw new ScimError(400, 'invalidPath', `A path is longer than ${MAX_PATH_LENGTH} characters`);
    }
  }
  const message = Array.isArray(operations)
    ? {
        ...body,
        Operations: (operations as Record<string, unknown>[]).map((operation) =>
          operation && typeof operation === 'object' && 'value' in operation ? { ...operation, value: withoutNulls(operation.value) } : operation,
        ),
      }
    : body;
  return coerced(() => new SCIMMY.Messages.PatchOp(message as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0]));
}
