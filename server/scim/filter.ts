// SCIM filters (RFC 7644 §3.4.2.2) as SQL: scimmy parses the expression (SCIMMY.Types.Filter, which
// answers 400 invalidFilter on bad syntax) into OR-ed branches of AND-ed comparisons; each
// comparison is turned here into a condition on the column its attribute maps to. An attribute
// this server does not map, or an operator its attribute cannot take, is a 400 invalidFilter too
// (never a silent "matches nothing"). Text compares without letter case (SCIM's caseExact=false)
// unless the attribute says otherwise.
import SCIMMY from 'scimmy';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { invalidFilter } from './errors';

/** Filters longer than this, or expanding to more OR-ed branches (the parser multiplies out
 *  parentheses), are refused: a provisioning client sends `userName eq "…"`, not a program. */
const MAX_FILTER_LENGTH = 1000;
const MAX_BRANCHES = 32;
const MAX_COMPARISONS = 64;

type Condition = RawBuilder<SqlBool>;
const TRUE: Condition = sql<SqlBool>`1 = 1`;
const FALSE: Condition = sql<SqlBool>`1 = 0`;

/** How one attribute path (lower case, e.g. `emails.value`) is compared. */
export type FilterAttribute =
  /** Text in a column; `caseExact`: compared as stored (ids, externalId). */
  | { kind: 'text'; column: string; caseExact?: boolean }
  /** A time (epoch ms) in a column, compared with an ISO 8601 value. */
  | { kind: 'time'; column: string }
  /** A boolean held as `column = trueValue`. */
  | { kind: 'flag'; column: string; trueValue: number }
  /** The fixed `type` of a value we hold at most one of (emails are "work"): present when the column is. */
  | { kind: 'tag'; column: string; tag: string }
  /** A condition of its own (a group's members), for `eq` only. */
  | { kind: 'equals'; condition: (value: string) => Condition };

export type FilterAttributes = Record<string, FilterAttribute>;

interface Comparison {
  path: string;
  negated: boolean;
  operator: string;
  value: unknown;
}

const CORE_URN = /^urn:ietf:params:scim:schemas:core:2\.0:(?:user|group):/;
const isComparison = (value: unknown[]) => typeof value[0] === 'string';

/** The comparisons of one branch: `{userName: ["eq","x"], emails: {value: ["co","y"]}}` → flat list. */
function comparisonsOf(branch: Record<string, unknown>, prefix = ''): Comparison[] {
  return Object.entries(branch).flatMap(([key, value]) => {
    // A fully qualified name (urn:…:core:2.0:User:userName) is the core attribute's.
    const path = `${prefix}${key}`.toLowerCase().replace(CORE_URN, '');
    if (!Array.isArray(value)) return value && typeof value === 'object' ? comparisonsOf(value as Record<string, unknown>, `${path}.`) : [];
    const list = (isComparison(value) ? [value] : value) as unknown[][];
    return list.map((entry) => {
      const negated = entry[0] === 'not';
      const [operator, operand] = negated ? entry.slice(1) : entry;
      return { path, negated, operator: String(operator).toLowerCase(), value: operand };
    });
  });
}

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

function flagCondition(attribute: { column: string; trueValue: number }, { operator, value, path }: Comparison): Condition {
  if (operator === 'pr') return TRUE;
  if (typeof value !== 'boolean' || (operator !== 'eq' && operator !== 'ne')) throw invalidFilter(`${path} takes eq or ne with true or false`);
  const holds = value === (operator === 'eq');
  return holds ? sql<SqlBool>`${sql.ref(attribute.column)} = ${attribute.trueValue}` : sql<SqlBool>`${sql.ref(attribute.column)} <> ${attribute.trueValue}`;
}

function tagCondition(attribute: { column: string; tag: string }, { operator, value, path }: Comparison): Condition {
  const present = sql<SqlBool>`coalesce(${sql.ref(attribute.column)}, '') <> ''`;
  if (operator === 'pr') return present;
  if (typeof value !== 'string' || (operator !== 'eq' && operator !== 'ne')) throw invalidFilter(`${path} takes eq or ne with a type`);
  const same = value.toLowerCase() === attribute.tag;
  return same === (operator === 'eq') ? present : sql<SqlBool>`not (${present})`;
}

function condition(attributes: FilterAttributes, comparison: Comparison): Condition {
  const attribute = attributes[comparison.path];
  if (!attribute) throw invalidFilter(`Filtering by ${comparison.path} is not supported`);
  if (comparison.operator === 'np') return sql<SqlBool>`not (${condition(attributes, { ...comparison, operator: 'pr' })})`;
  let result: Condition;
  switch (attribute.kind) {
    case 'text':
      result = textCondition(attribute, comparison);
      break;
    case 'time':
      result = timeCondition(attribute.column, comparison);
      break;
    case 'flag':
      result = flagCondition(attribute, comparison);
      break;
    case 'tag':
      result = tagCondition(attribute, comparison);
      break;
    case 'equals':
      if (comparison.operator !== 'eq' || typeof comparison.value !== 'string') throw invalidFilter(`${comparison.path} takes eq with a value`);
      result = attribute.condition(comparison.value);
      break;
  }
  return comparison.negated ? sql<SqlBool>`not (${result})` : result;
}

/** The words, quoted strings and brackets of a filter (the quoted strings' content is not read). */
const TOKEN = /"(?:[^"\\]|\\.)*"?|[()[\]]|[^\s()[\]"]+/g;

interface Shape {
  /** OR-ed branches once multiplied out. */
  branches: number;
  comparisons: number;
}

/**
 * Reads the shape of `expression` before scimmy parses it: how many OR-ed branches its multiplying
 * out makes (counted without making them: OR adds, AND multiplies), and the forms scimmy reads
 * wrongly, refused with a 400 rather than answered wrongly — `not` around several comparisons (it
 * negates each one and keeps the AND / OR, against De Morgan) and `or` inside a `[…]` value filter
 * (read as AND). Malformed input is read as far as it goes; the parser then refuses it.
 */
export function filterShape(expression: string): Shape {
  const tokens = (expression.match(TOKEN) ?? []).map((token) => (token.startsWith('"') ? '"' : token.toLowerCase()));
  let at = 0;
  const join = (kind: 'or' | 'and', parse: (inValue: boolean) => Shape, inValue: boolean): Shape => {
    const total = parse(inValue);
    while (tokens[at] === kind) {
      if (kind === 'or' && inValue) throw invalidFilter('"or" inside a [value filter] is not supported: join two filters with "or" instead');
      at++;
      const next = parse(inValue);
      total.branches = kind === 'or' ? total.branches + next.branches : total.branches * next.branches;
      total.comparisons += next.comparisons;
    }
    return total;
  };
  // expression := term (or term)* ; term := factor (and factor)*
  const expressionOf = (inValue: boolean): Shape => join('or', termOf, inValue);
  const termOf = (inValue: boolean): Shape => join('and', factorOf, inValue);
  // factor := not factor | ( expression ) | a comparison, which may hold a [ value filter ]
  const factorOf = (inValue: boolean): Shape => {
    if (tokens[at] === 'not') {
      at++;
      const negated = factorOf(inValue);
      if (negated.comparisons > 1) throw invalidFilter('"not (…)" is supported around one comparison only: use ne, np or the opposite operator');
      return negated;
    }
    if (tokens[at] === '(') {
      at++;
      const inner = expressionOf(inValue);
      if (tokens[at] === ')') at++;
      return inner;
    }
    const shape = { branches: 1, comparisons: 1 };
    while (at < tokens.length && !['and', 'or', ')', ']'].includes(tokens[at]!)) {
      if (tokens[at++] !== '[') continue;
      const inner = expressionOf(true);
      shape.branches *= inner.branches;
      // `emails[value co "x"]` is one comparison; with more inside, each one counts.
      shape.comparisons += inner.comparisons - 1;
      if (tokens[at] === ']') at++;
    }
    return shape;
  };
  const total = { branches: 0, comparisons: 0 };
  // A stray closing bracket ends an expression early: go on after it so nothing is left unread.
  while (at < tokens.length) {
    const part = expressionOf(false);
    total.branches += part.branches;
    total.comparisons += part.comparisons;
    at++;
  }
  return total;
}

/** The SQL condition of a SCIM filter over `attributes`. */
export function filterCondition(expression: string, attributes: FilterAttributes): Condition {
  if (expression.length > MAX_FILTER_LENGTH) throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  // Counted before parsing: the parser multiplies out first, and 16 AND-ed pairs are 65 536 branches.
  if (filterShape(expression).branches > MAX_BRANCHES) throw invalidFilter(`The filter expands to more than ${MAX_BRANCHES} alternatives`);
  let branches: Record<string, unknown>[];
  try {
    branches = [...new SCIMMY.Types.Filter(expression)] as Record<string, unknown>[];
  } catch (error) {
    if (error instanceof SCIMMY.Types.Error) throw invalidFilter(error.message);
    throw invalidFilter('The filter cannot be read');
  }
  const perBranch = branches.map((branch) => comparisonsOf(branch));
  if (perBranch.reduce((sum, list) => sum + list.length, 0) > MAX_COMPARISONS) throw invalidFilter(`The filter has more than ${MAX_COMPARISONS} comparisons`);
  if (perBranch.some((list) => !list.length)) throw invalidFilter('The filter has an empty expression');
  const ors = perBranch.map(
    (list) =>
      sql<SqlBool>`(${sql.join(
        list.map((comparison) => condition(attributes, comparison)),
        sql` and `,
      )})`,
  );
  return ors.length ? sql<SqlBool>`(${sql.join(ors, sql` or `)})` : FALSE;
}
