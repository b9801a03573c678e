// The browser's side of a call declaration (../contract): the input and the answer are typed from
// it and its path is built from the parameters, so no call writes its answer type or path by hand;
// a link declaration's address (an image, a download, a redirect) is built the same way (urlOf), and
// a download can be fetched with the session (fileOf).
// The only module besides ../http that names an API path (eslint.config.js refuses the others).
import { fillPath, type CallAnswer, type CallDeclaration, type CallInput, type LinkDeclaration, type LinkInput } from '../contract/declare';
import { apiUrl, request, requestList, type Query, type RequestOptions } from '../http';

/** How a call reacts (silent, timeout, headers…); what it sends comes from its input. */
type CallOptions = Omit<RequestOptions, 'query' | 'body'>;

/** The body of a call's input, for a function that passes its caller's body on. */
export type CallBody<C extends CallDeclaration> = CallInput<C> extends { body: infer B } ? B : never;

/** The input is optional when the declaration needs none. */
type Args<C extends CallDeclaration> =
  object extends CallInput<C> ? [input?: CallInput<C>, options?: CallOptions] : [input: CallInput<C>, options?: CallOptions];

/** A link's parameters and query, optional when the declaration needs none. */
type LinkArgs<L extends LinkDeclaration> = object extends LinkInput<L> ? [input?: LinkInput<L>] : [input: LinkInput<L>];

interface Given {
  params?: Record<string, unknown>;
  query?: Query;
  body?: unknown;
}

/** Calls the API as `def` declares; resolves to the envelope's `data` (see `request`). */
export function call<C extends CallDeclaration>(def: C, ...[input, options]: Args<C>): Promise<CallAnswer<C>> {
  const given: Given = input ?? {};
  return request(def.method, fillPath(def.path, given.params), { ...options, query: given.query, body: given.body });
}

/** A list call: the answer must carry an array `list` (see `requestList`). */
export function callList<C extends CallDeclaration>(def: C, ...[input, options]: Args<C>): Promise<CallAnswer<C>> {
  const given: Given = input ?? {};
  return requestList(fillPath(def.path, given.params), given.query, options);
}

/** The address of a link (an image's `src`, a download's `href`, a redirect to go to) under the
 *  API base, its parameters filled in and its non-empty query values added. */
export function urlOf<L extends LinkDeclaration>(def: L, ...[input]: LinkArgs<L>): string {
  const given: Given = input ?? {};
  return apiUrl(fillPath(def.path, given.params), given.query);
}

/** The file a link answers (a download), fetched with the session: a plain link cannot carry the
 *  token header of token mode. A refusal throws an HttpError after the reaction, as a call's. */
export function fileOf<L extends LinkDeclaration>(def: L, ...[input]: LinkArgs<L>): Promise<Blob> {
  const given: Given = input ?? {};
  return request('GET', fillPath(def.path, given.params), { query: given.query, file: true });
}
