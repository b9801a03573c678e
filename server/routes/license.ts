// License calls: declaration and access of each; the work is done by server/services/license.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/license';
import { activateLicense, licenseStatus, requestCode } from '../services/license';
import { Permission } from '../../src/core/permission-codes';

const tags = ['License'];

export const licenseRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getLicenseStatus, {
    tags,
    access: Permission.SelfService,
    summary: 'License status',
    handler: () => licenseStatus(ctx),
  });

  route(app, gate, calls.getLicenseAuth, {
    tags,
    access: Permission.Settings,
    summary: 'The request code identifying this installation',
    handler: () => requestCode(ctx),
  });

  route(app, gate, calls.postLicenseAuth, {
    tags,
    access: Permission.Settings,
    summary: 'Activate a license (newLicense)',
    handler: ({ actor, body, raw }) => activateLicense(ctx, actor, body.newLicense, raw.ip),
  });
};
