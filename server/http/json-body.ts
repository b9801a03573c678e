// The JSON body parser of every route: Fastify's own (which refuses __proto__ and constructor
// poisoning) behind two checks of the text. A body nested thousands of levels deep is valid JSON,
// but walking it (validation, copying) overflows the stack; a NUL character (\u0000) in a string
// is valid JSON too, but PostgreSQL cannot store it in text (an error deep inside a query) and no
// field has a use for it. Both are refused with a 400 before anything looks inside. The check is
// one pass over the text, no allocation, a few µs for a usual body.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

const MAX_JSON_DEPTH = 64;

const QUOTE = 34;
const BACKSLASH = 92;
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [91, 93, 123, 125];

/** What makes a JSON text unacceptable before it is parsed: arrays and objects nested deeper than
 *  `limit` (brackets inside strings do not count), or a NUL character escaped in a string. */
function jsonTextProblem(text: string, limit: number): 'depth' | 'nul' | undefined {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) {
        if (text.startsWith('u0000', index + 1)) return 'nul';
        index += 1;
      } else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_ARRAY || char === OPEN_OBJECT) {
      depth += 1;
      if (depth > limit) return 'depth';
    } else if (char === CLOSE_ARRAY || char === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return undefined;
}

const REFUSAL = {
  depth: `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`,
  nul: 'The JSON body contains a NUL character (\\u0000)',
} as const;

export function guardJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  addGuardedJsonParser(app, 'application/json');
}

/** Parses `contentType` (a JSON media type, e.g. SCIM's application/scim+json) with the checks above. */
export function addGuardedJsonParser(app: FastifyInstance, contentType: string): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'ignore' } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (request, body: string, done) => {
    const problem = jsonTextProblem(body, MAX_JSON_DEPTH);
    if (problem) {
      done(new ApiError(400, REFUSAL[problem]), undefined);
      return;
    }
    // Fastify's default parser answers through `done` (its typing also allows a promise).
    void parseJson(request, body, done);
  });
}
