// The answer check: every answer's `data` is held against its route's response schema (the shared
// valibot schema of src/core/schemas the route declares as `response`), so a handler that drifts
// from the wire contract fails a test instead of surprising a client. Off in production (it costs
// a parse per answer); the test harness (test/server/harness.ts) turns it on with `checkAnswers`.
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { ApiError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The schema of the envelope's `data` on success (set by defineRoute from `response`). */
    answer?: v.GenericSchema;
  }
}

/** Where `answer` has object keys that the schema's output dropped: properties the contract does
 *  not name (valibot's objects pass unknown keys and strip them). */
function undocumentedKeys(answer: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(answer) && Array.isArray(parsed)) {
    return answer.flatMap((item, index) => undocumentedKeys(item, parsed[index], `${path}[${index}]`));
  }
  if (answer === null || parsed === null || typeof answer !== 'object' || typeof parsed !== 'object') return [];
  return Object.entries(answer).flatMap(([key, value]) =>
    key in parsed ? undocumentedKeys(value, (parsed as Record<string, unknown>)[key], `${path}.${key}`) : [`${path}.${key}`],
  );
}

/** The drifts of `data` from `schema`: each failing field with its issue, and each key the schema does not name. */
function answerDrifts(schema: v.GenericSchema, data: unknown): string[] {
  const result = v.safeParse(schema, data);
  if (!result.success) return result.issues.map((issue) => `data.${v.getDotPath(issue) ?? ''}: ${issue.message}`);
  return undocumentedKeys(data, result.output, 'data').map((path) => `${path}: not in the response schema`);
}

/** Turns the answer check on for every route of `app`: a drift answers 500 with the route and each drift in `data`. */
export function checkAnswers(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    const schema = request.routeOptions.config.answer;
    if (!schema || reply.statusCode !== 200) return payload;
    const { code, data } = payload as { code?: unknown; data?: unknown };
    if (code !== 0) return payload;
    const drifts = answerDrifts(schema, data);
    if (drifts.length)
      throw new ApiError(500, 'The answer does not match its response schema', { route: `${request.method} ${request.routeOptions.url}`, drifts });
    return payload;
  });
}
