// Statements built and compiled once, their values bound by name at each run. Kysely builds and
// compiles a query again on every call, which costs more than SQLite's indexed lookup or write
// itself (about 30 µs against 6 µs, bench/FINDINGS.md); the provider's storage runs several
// statements on every token call. The hottest ones are also named prepared statements on
// PostgreSQL (connect.ts), so each connection plans them once.
import type { Compilable, CompiledQuery } from 'kysely';
import { preparedOnPostgres } from './connect';

/** A value that stands for the slot `name` while the statement is compiled. */
const marker = (name: string) => `\u0000slot:${name}\u0000`;

/** Where each parameter comes from: a slot's name, or a constant of the built query. */
type Source = { slot: string } | { constant: unknown };

/**
 * Builds the statement once with `slot(name)` standing for each value, compiles it, and answers a
 * function that binds the values by name (the values' type first, the row's type is inferred:
 * `compiledStatement<{ id: string }>()((slot) => db.selectFrom(…).where('id', '=', slot('id')))`).
 * A slot may appear several times (an upsert's values and its update); every slot must reach the
 * compiled parameters.
 */
export const compiledStatement =
  <Values extends Record<string, unknown>>(options: { preparedOnPostgres?: boolean } = {}) =>
  <Row>(build: (slot: (name: keyof Values & string) => never) => Compilable<Row>): ((values: Values) => CompiledQuery<Row>) => {
    const slots = new Set<string>();
    const compiled = build((name) => {
      slots.add(name);
      return marker(name) as never;
    }).compile();
    const sources: Source[] = compiled.parameters.map((parameter) => {
      const name = [...slots].find((slot) => parameter === marker(slot));
      return name === undefined ? { constant: parameter } : { slot: name };
    });
    const bound = new Set(sources.flatMap((source) => ('slot' in source ? [source.slot] : [])));
    const lost = [...slots].filter((slot) => !bound.has(slot));
    if (lost.length) throw new Error(`compiledStatement: slot(s) ${lost.join(', ')} did not reach the parameters of ${compiled.sql}`);
    if (options.preparedOnPostgres) preparedOnPostgres(compiled.sql);
    return (values) => ({ ...compiled, parameters: sources.map((source) => ('slot' in source ? values[source.slot] : source.constant)) });
  };
