// The answer cut: a success envelope is serialized by fast-json-stringify from its route's response
// schema (the valibot schema as JSON Schema), which writes only the properties the schema names.
// A field a handler returns but the contract does not declare (a password hash, an internal flag)
// therefore never leaves the server, in production too, at the cost of a serializer compiled once
// per route on its first answer (fast-json-stringify is Fastify's own serializer, and faster than
// JSON.stringify). The tests' answer check (answer-check.ts) still reports such a field as a drift.
import { toJsonSchema } from '@valibot/to-json-schema';
import fastJson from 'fast-json-stringify';
import type * as v from 'valibot';

type Serialize = (payload: unknown) => string;

const compiled = new WeakMap<v.GenericSchema, Serialize>();

function compile(schema: v.GenericSchema): Serialize {
  // A recursive schema (a menu's children) refers to `#/$defs/…`: the definitions go to the root.
  const { $schema: _, $defs, ...data } = toJsonSchema(schema, { target: 'draft-07', errorMode: 'ignore' }) as Record<string, unknown>;
  const envelope = fastJson({
    type: 'object',
    properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
    ...($defs ? { $defs } : {}),
  } as Parameters<typeof fastJson>[0]);
  // Only a success envelope is cut; anything else (an error envelope) is written as it is.
  return (payload) => ((payload as { code?: unknown } | null)?.code === 0 ? envelope(payload as object) : JSON.stringify(payload));
}

/** The serializer that writes a success envelope with only what `schema` declares in `data`. */
export function cutTo(schema: v.GenericSchema): Serialize {
  let serialize = compiled.get(schema);
  if (!serialize) {
    serialize = compile(schema);
    compiled.set(schema, serialize);
  }
  return serialize;
}
