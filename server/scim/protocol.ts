// The SCIM protocol's work — the resources, discovery, and scimmy's own errors read as ours —
// loaded with scimmy on the first SCIM call (server/scim/plugin.ts): a server at rest does not
// need it (server/lazy.ts), and the compiled server keeps it in a chunk of its own.
import SCIMMY from 'scimmy';
import { ScimError, type ScimType } from './errors';

export * as users from './users';
export * as groups from './groups';
export * as discovery from './discovery';

export async function scimmyErrorsRead<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SCIMMY.Types.Error) throw new ScimError(error.status, (error.scimType as ScimType | null) ?? undefined, error.message);
    throw error;
  }
}
