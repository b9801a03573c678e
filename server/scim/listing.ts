// The query parameters of a SCIM read (RFC 7644 §3.4.2): filter, paging (startIndex is 1-based,
// count at most MAX_COUNT) and the attributes to answer, and the ListResponse of a page.
import type { SelectQueryBuilder } from 'kysely';
import { invalidValue } from './errors';

/** The most resources one answer lists (ServiceProviderConfig's filter.maxResults). */
export const MAX_COUNT = 100;
const MAX_ATTRIBUTES_LENGTH = 1000;

export interface ReadQuery {
  filter?: string;
  startIndex: number;
  count: number;
  /** `attributes` / `excludedAttributes` as scimmy takes them. */
  projection: { attributes?: string; excludedAttributes?: string };
}

function text(query: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !value.trim() || value.length > max)
    throw invalidValue(`${name} must be given once, as a non-empty text of at most ${max} characters`);
  return value;
}

function integer(query: Record<string, unknown>, name: string, fallback: number): number {
  const value = text(query, name, 12);
  if (value === undefined) return fallback;
  if (!/^-?\d{1,9}$/.test(value)) throw invalidValue(`${name} must be an integer`);
  return Number(value);
}

/** A comma-separated list of attribute names; an empty name (`userName,`) is refused. */
function attributeList(query: Record<string, unknown>, name: string): string | undefined {
  const list = text(query, name, MAX_ATTRIBUTES_LENGTH);
  if (list?.split(',').some((attribute) => !attribute.trim())) throw invalidValue(`${name} has an empty attribute name (a stray comma?)`);
  return list;
}

export function readQuery(raw: unknown): ReadQuery {
  const query = (raw ?? {}) as Record<string, unknown>;
  const attributes = attributeList(query, 'attributes');
  const excludedAttributes = attributeList(query, 'excludedAttributes');
  return {
    // Its length is the filter's own check (400 invalidFilter, server/scim/filter.ts).
    filter: text(query, 'filter', Number.MAX_SAFE_INTEGER),
    // Values below 1 are read as 1; a count above the maximum as the maximum (RFC 7644 §3.4.2.4).
    startIndex: Math.max(1, integer(query, 'startIndex', 1)),
    count: Math.min(MAX_COUNT, Math.max(0, integer(query, 'count', MAX_COUNT))),
    projection: { ...(attributes ? { attributes } : {}), ...(excludedAttributes ? { excludedAttributes } : {}) },
  };
}

/** Whether the answer includes a (costly) attribute, e.g. a group's members. */
export function projects(projection: ReadQuery['projection'], attribute: string): boolean {
  const names = (list: string) => list.split(',').map((name) => name.trim().toLowerCase().split('.')[0]);
  if (projection.attributes) return names(projection.attributes).includes(attribute.toLowerCase());
  if (projection.excludedAttributes) return !names(projection.excludedAttributes).includes(attribute.toLowerCase());
  return true;
}

/** A ListResponse of one page read from the database. (scimmy's ListResponse pages a whole result
 *  set itself, which would cut a page that was already cut.) */
export function listResponse(resources: unknown[], totalResults: number, startIndex: number) {
  return { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

// Kysely's builder types are too deep to carry generically here; the callers name their rows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = SelectQueryBuilder<any, any, any>;

/** The total of `select`'s matches and the page `query` asks for, in `order` (a stable order:
 *  the creation time, then the id). */
export async function pageOf<Row>(select: AnyQuery, order: string[], query: ReadQuery): Promise<{ rows: Row[]; total: number }> {
  const counted = (await select
    .clearSelect()
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirstOrThrow()) as { total: unknown };
  const total = Number(counted.total);
  if (!query.count || query.startIndex > total) return { rows: [], total };
  const ordered = order.reduce((sorted, column) => sorted.orderBy(column), select);
  const rows: Row[] = await ordered
    .limit(query.count)
    .offset(query.startIndex - 1)
    .execute();
  return { rows, total };
}
