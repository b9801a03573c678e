// One declaration per API call: its method, its path (`:name` marks a parameter) and the valibot
// schemas of its parameters, query, body and answer (the `data` of the envelope). A GET that does
// not answer the envelope (a redirect, a download, an image, a page) is a link declaration: what it
// answers is named instead of a schema, and the browser builds its address with `urlOf`. The server
// registers the call from it (server/http/route.ts `route`: the handler's return type is the
// answer's input type, the answer is cut to the schema before it leaves); the browser calls it
// with `call` (src/core/api/call.ts: the input and the answer are typed from it, the path is built
// from the parameters).
//
// A declaration is a plain object literal, `{ … } as const satisfies CallDeclaration`, not the
// result of a helper function: rollup keeps only the properties a bundle reads from a literal
// (the browser reads `method` and `path`), so the schemas stay out of the browser's bundles
// unless a form uses them itself. A helper call would keep the whole object and every schema.
// The schemas' modules still load with a declaration's unless rollup knows they have no side
// effects (rollup.config.mjs `declarationsOnly` lists those a sign-in or dialog call reaches).
import type * as v from 'valibot';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

type Schema = v.GenericSchema;

export interface CallDeclaration {
  readonly method: Method;
  /** Relative to the API base (`/tenants/:id`); each `:name` is a key of `params`. */
  readonly path: string;
  readonly params?: Schema;
  readonly query?: Schema;
  readonly body?: Schema;
  /** The body is multipart/form-data (an upload): the browser sends a FormData, the handler reads
   *  its parts itself (no `body` schema then). */
  readonly multipart?: true;
  /** The envelope's `data` on success. */
  readonly response: Schema;
}

/** What a link answers: a redirect (302, its Location on this site), or a body of this media type. */
export type LinkAnswer = 'redirect' | 'text/csv' | 'image/png' | 'image/*' | 'text/html' | 'application/samlmetadata+xml';

/** A GET whose address the browser goes to or loads (a link, an image's `src`, a redirect, a
 *  download) or another party fetches (metadata): not the JSON envelope, so no `response`. */
export interface LinkDeclaration {
  readonly method: 'GET';
  /** Relative to the API base, as a call's. */
  readonly path: string;
  readonly params?: Schema;
  readonly query?: Schema;
  readonly answers: LinkAnswer;
}

/** An endpoint of a protocol binding that another site's page sends the browser to (SAML's
 *  HTTP-Redirect and HTTP-POST bindings, and the steps of a sign-out through the apps): its
 *  protocol parameters come in the query (GET) or in a posted application/x-www-form-urlencoded
 *  form (POST), and it answers a redirect or a page that posts the answer on. The handler reads the
 *  parameters as sent (a signature covers their raw octets), so `fields` documents them and the
 *  route does not parse them. Cross-site by design: no session from the gate and no CSRF check;
 *  what the message carries (its signature, its issuer) is checked instead. */
export interface BindingDeclaration {
  readonly method: 'GET' | 'POST';
  /** Relative to the API base, as a call's. */
  readonly path: string;
  readonly params?: Schema;
  readonly fields?: Schema;
  readonly answers: readonly LinkAnswer[];
}

type Input<S> = S extends Schema ? v.InferInput<S> : never;

/** What a caller gives: the parameters, query and body its declaration names (and only those). */
export type CallInput<C extends CallDeclaration> = (C['params'] extends Schema ? { params: Input<C['params']> } : unknown) &
  (C['query'] extends Schema ? { query?: Input<C['query']> } : unknown) &
  (C['body'] extends Schema ? { body: Input<C['body']> } : unknown) &
  (C['multipart'] extends true ? { body: FormData } : unknown);

/** What a link's address is built from: its parameters and query, as a call's input. */
export type LinkInput<L extends LinkDeclaration> = (L['params'] extends Schema ? { params: Input<L['params']> } : unknown) &
  (L['query'] extends Schema ? { query?: Input<L['query']> } : unknown);

/** What the browser receives: the response schema's output. */
export type CallAnswer<C extends CallDeclaration> = v.InferOutput<C['response']>;

/** What a handler may return: the response schema's input (fields it does not name are cut); a
 *  call answering null may return nothing (the envelope's data is then null). */
export type HandlerAnswer<C extends CallDeclaration> =
  null extends v.InferInput<C['response']> ? v.InferInput<C['response']> | void : v.InferInput<C['response']>;

/** The path of a call with its parameters filled in, each encoded as one path segment. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params?.[name])));
}
