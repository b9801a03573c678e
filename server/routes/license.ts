// license calls.
import * as v from 'valibot';
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { activateLicense, licenseStatus, requestCode } from '../license/service';
import { ApiError } from '../http/errors';
import { Permission } from '../../src/core/permission-codes';
import { licenseStatus as licenseStatusAnswer } from '../../src/core/schemas/license';

const tags = ['License'];
const activateBody = v.object({ newLicense: v.pipe(v.string('rule.required'), v.trim(), v.nonEmpty('rule.required'), v.maxLength(8000, 'rule.license')) });

export function licenseRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/license/status', tags, access: Permission.SelfService, summary: 'License status', response: licenseStatusAnswer,
    handler: () => licenseStatus(ctx),
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/license/auth', tags, access: Permission.Settings, summary: 'The request code identifying this installation', response: v.string(),
    handler: () => requestCode(ctx),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/license/auth', tags, access: Permission.Settings, summary: 'Activate a license (newLicense)', body: activateBody, response: licenseStatusAnswer,
    handler: async ({ actor, body, raw }) => {
      try {
        const answer = await activateLicense(ctx, body.newLicense);
        await ctx.audit.record({ action: 'license.activate', actor, target: { type: 'license', id: null }, ip: raw.ip, detail: { licensee: answer.licensee, expiresAt: answer.expiresAt } });
        return answer;
      } catch (error) {
        if (error instanceof ApiError) await ctx.audit.record({ action: 'license.refused', actor, target: { type: 'license', id: null }, ip: raw.ip, success: false, detail: { reason: error.message } });
        throw error;
      }
    },
  });
}
