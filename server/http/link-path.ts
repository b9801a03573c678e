// The server's own address of a link declared in src/core/contract (a redirect it answers, an image
// a sign-in failure points to): the API's mount plus the declared path, parameters filled in.
import { fillPath, type LinkDeclaration, type LinkInput } from '../../src/core/contract/declare';

/** Where server/app.ts mounts the API routes. */
const API_MOUNT = '/api';

export function linkPath<L extends LinkDeclaration>(link: L, ...[input]: object extends LinkInput<L> ? [input?: LinkInput<L>] : [input: LinkInput<L>]): string {
  const params = (input as { params?: Record<string, unknown> } | undefined)?.params;
  return `${API_MOUNT}${fillPath(link.path, params)}`;
}
