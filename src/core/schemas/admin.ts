// Administration calls beyond the first server cut: user list sorting and tenant filtering, roles
// of a user per app, moving a tenant, tenant administrators, privilege order and the user lookup
// of member pickers.
import * as v from 'valibot';
import { id, pagedList, version } from './common';
import { user, userListQuery } from './users';

/** Columns a user list can be sorted by (each has an index). */
const userSortProps = ['username', 'realName', 'createdAt'] as const;
export type UserSortProp = (typeof userSortProps)[number];
const sortOrders = ['asc', 'desc'] as const;
export type SortOrder = (typeof sortOrders)[number];

/** GET /user: paging and search, plus sorting and the tenant filter (subtree by default, or that tenant only). */
export const adminUserListQuery = v.object({
  ...userListQuery.entries,
  sort: v.optional(v.picklist(userSortProps, 'rule.sort'), 'createdAt'),
  order: v.optional(v.picklist(sortOrders, 'rule.sort'), 'desc'),
  tenantMatch: v.optional(v.picklist(['subtree', 'exact'], 'rule.tenantMatch'), 'subtree'),
});
export const adminUserList = pagedList(user);

/** The roles of one app as one user holds them. */
const userAppRoles = v.object({
  appId: v.string(),
  appName: v.string(),
  roles: v.array(v.object({ id: v.string(), name: v.string(), assigned: v.boolean() })),
});
export const userAppRolesList = v.array(userAppRoles);
export const userAppParams = v.object({ id, appId: id });
export const roleIdsBody = v.object({ roleIds: v.pipe(v.array(id, 'rule.required'), v.maxLength(500, 'rule.maxLength?max=500')) });

/** PUT /tenants/{id}/parent: moves a tenant (with its subtree) under another parent. */
export const tenantMoveBody = v.object({ parentId: id, version });

/** PUT /apps/{appId}/privileges/order: the children of one parent (null: the top level) in their new order. */
export const privilegeOrderBody = v.object({
  parentId: v.nullable(id),
  ids: v.pipe(v.array(id, 'rule.required'), v.maxLength(1000, 'rule.maxLength?max=1000')),
});

/** A user lookup for member pickers: a few users whose username or real name contains the text. */
export const memberLookupQuery = v.object({
  searchValue: v.pipe(v.string('rule.required'), v.trim(), v.nonEmpty('rule.required'), v.maxLength(60, 'rule.maxLength?max=60')),
});
export const MEMBER_LOOKUP_LIMIT = 20;
