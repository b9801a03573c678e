// The JSON body parser of every route: Fastify's own (which refuses __proto__ and constructor
// poisoning) behind a nesting limit. A body nested thousands of levels deep is valid JSON, but
// walking it (validation, copying) overflows the stack: it is refused with a 400 before anything
// looks inside. The check is one pass over the text, no allocation, a few µs for a usual body.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

export const MAX_JSON_DEPTH = 64;

const QUOTE = 34;
const BACKSLASH = 92;
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [91, 93, 123, 125];

/** Whether the JSON text nests arrays and objects deeper than `limit` (brackets inside strings do not count). */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index += 1;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_ARRAY || char === OPEN_OBJECT) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === CLOSE_ARRAY || char === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return false;
}

export function limitJsonDepth(app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'ignore' } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
      done(new ApiError(400, `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`), undefined);
      return;
    }
    parseJson(request, body, done);
  });
}
