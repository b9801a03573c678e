// Privileges of an app: the bodies of `/api/apps/:appId/privileges` and the answer's shape. Apart
// from the other app resources so that only the privilege forms load the privilege-key rule.
import * as v from 'valibot';
import { rules } from '../validation';
import { privilegeKey } from '../validation/privilege-key';
import { id } from './common';

export const privilegeBody = v.object({
  name: rules.resourceName,
  parentId: v.optional(v.nullable(id)),
  key: privilegeKey,
  sort: v.optional(
    v.pipe(
      v.number('rule.positiveInteger'),
      v.integer('rule.positiveInteger'),
      v.minValue(0, 'rule.positiveInteger'),
      v.maxValue(1_000_000, 'rule.positiveInteger'),
    ),
  ),
  path: v.optional(v.nullable(v.union([v.literal(''), rules.path], 'rule.path'))),
});
export const privilegeUpdateBody = v.partial(privilegeBody);
export const privilege = v.object({
  id: v.string(),
  appId: v.string(),
  parentId: v.nullable(v.string()),
  name: v.string(),
  key: v.string(),
  sort: v.number(),
  path: v.nullable(v.string()),
});
