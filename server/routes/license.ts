// License calls: declaration and access of each; the work is done by server/services/license.ts.
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { activateLicense, licenseStatus, requestCode } from '../services/license';
import { Permission } from '../../src/core/permission-codes';
import { licenseStatus as licenseStatusAnswer } from '../../src/core/schemas/license';

const tags = ['License'];
const activateBody = v.object({ newLicense: v.pipe(v.string('rule.required'), v.trim(), v.nonEmpty('rule.required'), v.maxLength(8000, 'rule.license')) });

export const licenseRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/license/status',
    tags,
    access: Permission.SelfService,
    summary: 'License status',
    response: licenseStatusAnswer,
    handler: () => licenseStatus(ctx),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/license/auth',
    tags,
    access: Permission.Settings,
    summary: 'The request code identifying this installation',
    response: v.string(),
    handler: () => requestCode(ctx),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/license/auth',
    tags,
    access: Permission.Settings,
    summary: 'Activate a license (newLicense)',
    body: activateBody,
    response: licenseStatusAnswer,
    handler: ({ actor, body, raw }) => activateLicense(ctx, actor, body.newLicense, raw.ip),
  });
};
