// Pieces shared by the API's request and answer schemas (built from the field rules of
// ../validation; the server validates with these and documents them in its OpenAPI document).
import * as v from 'valibot';
import { PAGING } from '../config';
import { rules } from '../validation';
import { idRule, uploadedImage } from '../validation/stored';

/** The paging cap: a list never answers more than this many rows at once. */
const MAX_PAGE_SIZE = 100;

/** A positive integer given as text (query strings), as a number. */
const positiveIntegerText = (fallback: number) =>
  v.optional(
    v.pipe(
      v.union([v.string(), v.number()], 'rule.positiveInteger'),
      v.transform(String),
      v.regex(/^\d{1,9}$/, 'rule.positiveInteger'),
      v.transform(Number),
      v.minValue(1, 'rule.positiveInteger'),
    ),
    String(fallback),
  );

/** list query: page, size (capped at MAX_PAGE_SIZE), searchProp/searchValue. */
export const pageQueryFields = {
  page: positiveIntegerText(PAGING.page),
  size: v.pipe(
    positiveIntegerText(PAGING.size),
    v.transform((size: number) => Math.min(size, MAX_PAGE_SIZE)),
  ),
  searchProp: v.optional(v.pipe(v.string('rule.required'), v.maxLength(64, 'rule.searchProp'))),
  searchValue: v.optional(v.pipe(v.string('rule.required'), v.maxLength(200, 'rule.maxLength?max=200'))),
};
export const pageQuery = v.object(pageQueryFields);
export type PageQuery = v.InferOutput<typeof pageQuery>;

/** The answer of every list call (PagedList of ../types). */
export function pagedList<TItem extends v.GenericSchema>(item: TItem) {
  return v.object({
    list: v.array(item),
    query: v.object({ searchProp: v.optional(v.string()), searchValue: v.optional(v.string()) }),
    pager: v.object({ page: v.number(), size: v.number(), total: v.number() }),
  });
}

/** Ids are opaque strings (UUIDs here). */
export const id = idRule;
export const idParams = v.object({ id });

/** A password as the browser sends it: the output of the core's transform (SHA-256 hex by default). */
export const transformedPassword = v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.maxLength(512, 'rule.password'));

/** The optimistic-concurrency version an update carries (409 when stale). */
export const version = v.pipe(v.number('rule.version'), v.integer('rule.version'), v.minValue(1, 'rule.version'));

/** Optional free text of at most `max` characters. */
export const optionalText = (max: number) => v.optional(v.nullable(v.pipe(v.string('rule.required'), v.maxLength(max, `rule.maxLength?max=${max}`))));

/** Optional description (Description rule) that may also be empty. */
export const optionalDescription = v.optional(v.nullable(v.union([v.literal(''), rules.description], 'rule.description')));

/** A yes/no switch as writes them. */
export const yesNo = v.picklist(['Y', 'N'], 'rule.yesNo');

export const okAnswer = v.null();

/** A stored image field: one of our own uploads or '' (the rule in ../validation/stored.ts says why). */
export { uploadedImage };
