// Calls of server/routes/menu-plans.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { idParams, okAnswer } from '../schemas/common';
import { privilege } from '../schemas/privileges';
import { plan, planBody, planForParams, planList, planListQuery, planUpdateBody } from '../schemas/menu-plans';

/** GET /menu-plans */
export const getMenuPlans = { method: 'GET', path: '/menu-plans', query: planListQuery, response: planList } as const satisfies CallDeclaration;

/** GET /menu-plans/for/:appId */
export const getMenuPlansForApp = {
  method: 'GET',
  path: '/menu-plans/for/:appId',
  params: planForParams,
  response: v.nullable(plan),
} as const satisfies CallDeclaration;

/** GET /menu-plans/:id */
export const getMenuPlansById = { method: 'GET', path: '/menu-plans/:id', params: idParams, response: plan } as const satisfies CallDeclaration;

/** POST /menu-plans */
export const postMenuPlans = { method: 'POST', path: '/menu-plans', body: planBody, response: plan } as const satisfies CallDeclaration;

/** PUT /menu-plans/:id */
export const putMenuPlansById = {
  method: 'PUT',
  path: '/menu-plans/:id',
  params: idParams,
  body: planUpdateBody,
  response: plan,
} as const satisfies CallDeclaration;

/** DELETE /menu-plans/:id */
export const deleteMenuPlansById = { method: 'DELETE', path: '/menu-plans/:id', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** GET /menu-plans/:id/privileges */
export const getMenuPlansPrivileges = {
  method: 'GET',
  path: '/menu-plans/:id/privileges',
  params: idParams,
  response: v.array(privilege),
} as const satisfies CallDeclaration;
