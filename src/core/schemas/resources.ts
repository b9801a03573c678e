// REST calls beyond the basic ones: tenants, apps and their administrators, privilege trees and
// roles (menu plans: menu-plans.ts; channels and messages: messaging.ts; the audit log: audit.ts).
import * as v from 'valibot';
import { Scope, Status, TenantType } from '../enums';
import { optionalField, rules } from '../validation';
import { fieldRule } from '../validation/field-rules';
import { id, optionalDescription, pageQueryFields, pagedList, version } from './common';

const status = v.picklist([Status.Enable, Status.Disabled], 'rule.availabilityStatus');
const stamps = { version: v.number(), createdAt: v.number(), updatedAt: v.number() };

// Tenants ------------------------------------------------------------------------------------
export const tenantListQuery = v.object({ ...pageQueryFields, searchProp: v.optional(v.picklist(['name'], 'rule.searchProp')), parentId: v.optional(id) });
export const tenantCreateBody = v.object({
  parentId: id,
  name: fieldRule.tenantName,
  type: v.picklist(
    Object.values(TenantType).filter((type) => type !== TenantType.Root),
    'rule.tenantType',
  ),
  description: optionalDescription,
});
export const tenantUpdateBody = v.object({
  name: v.optional(fieldRule.tenantName),
  type: v.optional(tenantCreateBody.entries.type),
  status: v.optional(status),
  description: optionalDescription,
  version,
});
export const tenant = v.object({
  id: v.string(),
  parentId: v.nullable(v.string()),
  name: v.string(),
  type: v.string(),
  scope: v.picklist([Scope.Platform, Scope.Tenant]),
  status: v.number(),
  description: v.nullable(v.string()),
  ...stamps,
});
export const tenantList = pagedList(tenant);

// Apps ---------------------------------------------------------------------------------------
const link = optionalField(v.union([rules.url, rules.absolutePath], 'rule.url'));
export const appListQuery = v.object({ ...pageQueryFields, searchProp: v.optional(v.picklist(['name'], 'rule.searchProp')) });
export const appCreateBody = v.object({
  name: fieldRule.appName,
  detail: optionalDescription,
  entrypoint: link,
  callbackUrl: optionalField(rules.url),
  isMaster: v.optional(v.boolean('rule.required')),
  status: v.optional(status),
});
export const appUpdateBody = v.object({ ...v.partial(appCreateBody).entries, version });
export const app = v.object({
  id: v.string(),
  name: v.string(),
  detail: v.nullable(v.string()),
  entrypoint: v.nullable(v.string()),
  callbackUrl: v.nullable(v.string()),
  isMaster: v.boolean(),
  status: v.number(),
  ...stamps,
});
export const appList = pagedList(app);
export const userIdsBody = v.object({ userIds: v.pipe(v.array(id, 'rule.required'), v.maxLength(500, 'rule.maxLength?max=500')) });
export const memberUser = v.object({ id: v.string(), username: v.string(), realName: v.string() });

// Privilege trees ----------------------------------------------------------------------------
export const appParams = v.object({ appId: id });
export const appItemParams = v.object({ appId: id, id });
// Roles --------------------------------------------------------------------------------------
export const roleListQuery = v.object({ ...pageQueryFields, searchProp: v.optional(v.picklist(['name'], 'rule.searchProp')) });
export const roleCreateBody = v.object({ name: fieldRule.roleName, description: optionalDescription });
export const roleUpdateBody = v.object({ name: v.optional(fieldRule.roleName), description: optionalDescription, version });
export const role = v.object({ id: v.string(), appId: v.string(), name: v.string(), description: v.nullable(v.string()), ...stamps });
export const roleList = pagedList(role);
export const privilegeIdsBody = v.object({ privilegeIds: v.pipe(v.array(id, 'rule.required'), v.maxLength(1000, 'rule.maxLength?max=1000')) });

export const countAnswer = v.object({ count: v.number() });
