// SCIM filters (RFC 7644 §3.4.2.2) as SQL: scim2-parse-filter reads the expression into a tree
// (and / or / not, parentheses at any depth, [value filters]); each comparison of the tree is turned
// here into a condition on the column its attribute maps to, and the tree into the same tree of SQL
// (so `not (a and b)` and nested parentheses mean what they say, and nothing is multiplied out). An
// expression the grammar does not allow, an attribute this server does not map, or an operator its
// attribute cannot take, is a 400 invalidFilter (never a silent "matches nothing"). Text compares
// without letter case (SCIM's caseExact=false) unless the attribute says otherwise.
import { parse, type Filter } from 'scim2-parse-filter';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { invalidFilter } from './errors';

/** A provisioning client sends `userName eq "…"`, not a program: longer, deeper or larger filters
 *  are refused (the depth also keeps the SQL under SQLite's expression depth limit). */
const MAX_FILTER_LENGTH = 1000;
const MAX_DEPTH = 12;
const MAX_COMPARISONS = 64;

type Condition = RawBuilder<SqlBool>;
const TRUE: Condition = sql<SqlBool>`1 = 1`;

/** How one attribute path (lower case, e.g. `emails.value`) is compared. */
type FilterAttribute =
  /** Text in a column; `caseExact`: compared as stored (ids, externalId). */
  | { kind: 'text'; column: string; caseExact?: boolean }
  /** A time (epoch ms) in a column, compared with an ISO 8601 value. */
  | { kind: 'time'; column: string }
  /** A boolean held as `column = trueValue`. */
  | { kind: 'flag'; column: string; trueValue: number }
  /** The `type` of a value we hold at most one of (in `column`), kept in `typeColumn`, else `tag`. */
  | { kind: 'tag'; column: string; typeColumn: string; tag: string }
  /** A condition of its own (a group's members), for `eq` only; `present`: there is at least one. */
  | { kind: 'equals'; condition: (value: string) => Condition; present: Condition };

export type FilterAttributes = Record<string, FilterAttribute>;

interface Comparison {
  path: string;
  operator: string;
  value: unknown;
}

const CORE_URN = /^urn:ietf:params:scim:schemas:core:2\.0:(?:user|group):/;
/** An attribute path as FilterAttributes names it: lower case, a fully qualified core name
 *  (urn:…:core:2.0:User:userName) read as the core attribute's. */
const pathOf = (attrPath: string) => attrPath.toLowerCase().replace(CORE_URN, '');

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

function textCondition(attribute: { column: string; caseExact?: boolean }, { operator, value, path }: Comparison): Condition {
  const stored = sql`coalesce(${sql.ref(attribute.column)}, '')`;
  if (operator === 'pr') return sql<SqlBool>`${stored} <> ''`;
  if (typeof value !== 'string' && typeof value !== 'number') throw invalidFilter(`${path} ${operator} needs a text value`);
  const text = String(value);
  const left = attribute.caseExact ? stored : sql`lower(${stored})`;
  const right = (operand: string) => (attribute.caseExact ? sql`${operand}` : sql`lower(${operand})`);
  const like = (pattern: string) => sql<SqlBool>`${left} like ${right(pattern)} escape '\\'`;
  switch (operator) {
    case 'eq':
      return sql<SqlBool>`${left} = ${right(text)}`;
    case 'ne':
      return sql<SqlBool>`${left} <> ${right(text)}`;
    case 'co':
      return like(`%${escapeLike(text)}%`);
    case 'sw':
      return like(`${escapeLike(text)}%`);
    case 'ew':
      return like(`%${escapeLike(text)}`);
    case 'gt':
      return sql<SqlBool>`${left} > ${right(text)}`;
    case 'ge':
      return sql<SqlBool>`${left} >= ${right(text)}`;
    case 'lt':
      return sql<SqlBool>`${left} < ${right(text)}`;
    case 'le':
      return sql<SqlBool>`${left} <= ${right(text)}`;
    default:
      throw invalidFilter(`Operator ${operator} is not supported for ${path}`);
  }
}

const TIME_OPERATORS: Record<string, string> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };

function timeCondition(column: string, { operator, value, path }: Comparison): Condition {
  if (operator === 'pr') return TRUE;
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!(operator in TIME_OPERATORS)) throw invalidFilter(`Operator ${operator} is not supported for ${path}`);
  if (Number.isNaN(at)) throw invalidFilter(`${path} ${operator} needs an ISO 8601 date and time`);
  return sql<SqlBool>`${sql.ref(column)} ${sql.raw(TIME_OPERATORS[operator]!)} ${at}`;
}

/** true or false; also "True" / "false" in quotes, as Entra ID writes booleans. */
function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(?:true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return undefined;
}

function flagCondition(attribute: { column: string; trueValue: number }, { operator, value, path }: Comparison): Condition {
  if (operator === 'pr') return TRUE;
  const wanted = booleanOf(value);
  if (wanted === undefined || (operator !== 'eq' && operator !== 'ne')) throw invalidFilter(`${path} takes eq or ne with true or false`);
  const holds = wanted === (operator === 'eq');
  return holds ? sql<SqlBool>`${sql.ref(attribute.column)} = ${attribute.trueValue}` : sql<SqlBool>`${sql.ref(attribute.column)} <> ${attribute.trueValue}`;
}

function tagCondition(attribute: { column: string; typeColumn: string; tag: string }, { operator, value, path }: Comparison): Condition {
  const present = sql<SqlBool>`coalesce(${sql.ref(attribute.column)}, '') <> ''`;
  if (operator === 'pr') return present;
  if (typeof value !== 'string' || (operator !== 'eq' && operator !== 'ne')) throw invalidFilter(`${path} takes eq or ne with a type`);
  // Types compare without letter case (RFC 7643 §4.1.2: caseExact false).
  const same = sql<SqlBool>`lower(coalesce(${sql.ref(attribute.typeColumn)}, ${attribute.tag})) = ${value.toLowerCase()}`;
  return operator === 'eq' ? sql<SqlBool>`(${present} and ${same})` : sql<SqlBool>`(${present} and not (${same}))`;
}

function attributeOf(attributes: FilterAttributes, path: string): FilterAttribute {
  const attribute = attributes[path];
  if (!attribute) throw invalidFilter(`Filtering by ${path} is not supported`);
  return attribute;
}

function comparisonCondition(attributes: FilterAttributes, comparison: Comparison): Condition {
  const attribute = attributeOf(attributes, comparison.path);
  switch (attribute.kind) {
    case 'text':
      return textCondition(attribute, comparison);
    case 'time':
      return timeCondition(attribute.column, comparison);
    case 'flag':
      return flagCondition(attribute, comparison);
    case 'tag':
      return tagCondition(attribute, comparison);
    case 'equals':
      if (comparison.operator === 'pr') return attribute.present;
      if (comparison.operator !== 'eq' || typeof comparison.value !== 'string') throw invalidFilter(`${comparison.path} takes eq with a value`);
      return attribute.condition(comparison.value);
  }
}

/** "The attribute has a value": what a [value filter] needs besides its own condition (no value
 *  at all matches no value filter, even `emails[not (type eq "home")]`). */
function presentCondition(attributes: FilterAttributes, path: string): Condition {
  const attribute = attributeOf(attributes, path);
  if (attribute.kind === 'equals') return attribute.present;
  if (attribute.kind === 'text' || attribute.kind === 'tag') return sql<SqlBool>`coalesce(${sql.ref(attribute.column)}, '') <> ''`;
  throw invalidFilter(`${path} has no values to filter with [...]`);
}

interface Walk {
  attributes: FilterAttributes;
  comparisons: number;
}

/** The SQL of one node of the tree; `within`: the attribute of the [value filter] it is in. */
function conditionOf(node: Filter, walk: Walk, depth: number, within?: string): Condition {
  if (depth > MAX_DEPTH) throw invalidFilter(`The filter is nested deeper than ${MAX_DEPTH} levels`);
  switch (node.op) {
    case 'and':
    case 'or':
      return sql<SqlBool>`(${sql.join(
        node.filters.map((child) => conditionOf(child, walk, depth + 1, within)),
        node.op === 'and' ? sql` and ` : sql` or `,
      )})`;
    case 'not':
      return sql<SqlBool>`not (${conditionOf(node.filter, walk, depth + 1, within)})`;
    case '[]': {
      if (within) throw invalidFilter('A [value filter] cannot hold another one');
      const path = pathOf(node.attrPath);
      return sql<SqlBool>`(${presentCondition(walk.attributes, path)} and ${conditionOf(node.valFilter, walk, depth + 1, path)})`;
    }
    default: {
      if (++walk.comparisons > MAX_COMPARISONS) throw invalidFilter(`The filter has more than ${MAX_COMPARISONS} comparisons`);
      const path = within ? `${within}.${pathOf(node.attrPath)}` : pathOf(node.attrPath);
      return comparisonCondition(walk.attributes, { path, operator: node.op, value: 'compValue' in node ? node.compValue : undefined });
    }
  }
}

/** A quoted value of a filter: a JSON string (its escapes included). */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** `node` with the placeholders of parseFilter replaced by their values. */
function restored(node: Filter, values: string[]): Filter {
  switch (node.op) {
    case 'and':
    case 'or':
      return { ...node, filters: node.filters.map((child) => restored(child, values)) };
    case 'not':
      return { ...node, filter: restored(node.filter, values) };
    case '[]':
      return { ...node, valFilter: restored(node.valFilter, values) };
    case 'pr':
      return node;
    default:
      return typeof node.compValue === 'string' ? { ...node, compValue: values[Number(node.compValue)]! } : node;
  }
}

/** The tree of a filter expression, its quoted values read by JSON's string rules as RFC 7644
 *  §3.4.2.2 says (`"a\\b"` is a\b, `"\u00e9"` is é). scim2-parse-filter reads `\"` alone as an
 *  escape (`\\` stays two backslashes, a value ending in one is not read at all), so it is handed
 *  each quoted value as a placeholder ("0", "1", …) and the values, read by JSON.parse, are put
 *  back. Throws on an expression the grammar does not allow. */
export function parseFilter(expression: string): Filter {
  const values: string[] = [];
  const placeheld = expression.replace(QUOTED, (quoted) => `"${values.push(JSON.parse(quoted) as string) - 1}"`);
  return restored(parse(placeheld), values);
}

/** The SQL condition of a SCIM filter over `attributes`. */
export function filterCondition(expression: string, attributes: FilterAttributes): Condition {
  if (expression.length > MAX_FILTER_LENGTH) throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  let tree: Filter;
  try {
    tree = parseFilter(expression);
  } catch (error) {
    // e.g. `active eq True` (the grammar's true and false are lower case), `emails[type eq "work"] pr`.
    throw invalidFilter(`The filter cannot be read (RFC 7644 §3.4.2.2): ${error instanceof Error ? error.message : String(error)}`);
  }
  return conditionOf(tree, { attributes, comparisons: 0 }, 0);
}
