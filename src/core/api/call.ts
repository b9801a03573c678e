// The browser's side of a call declaration (../contract): the input and the answer are typed from
// it and its path is built from the parameters, so no call writes its answer type or path by hand.
import { fillPath, type CallAnswer, type CallDeclaration, type CallInput } from '../contract/declare';
import { request, requestList, type Query, type RequestOptions } from '../http';

/** How a call reacts (silent, timeout, headers…); what it sends comes from its input. */
type CallOptions = Omit<RequestOptions, 'query' | 'body'>;

/** The body of a call's input, for a function that passes its caller's body on. */
export type CallBody<C extends CallDeclaration> = CallInput<C> extends { body: infer B } ? B : never;

/** The input is optional when the declaration needs none. */
type Args<C extends CallDeclaration> =
  object extends CallInput<C> ? [input?: CallInput<C>, options?: CallOptions] : [input: CallInput<C>, options?: CallOptions];

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
