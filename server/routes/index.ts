// Every API call, registered under /api.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import type { Gate } from '../http/route';
import { authRoutes } from './auth';
import { userRoutes } from './users';
import { tenantRoutes } from './tenants';
import { settingsRoutes } from './settings';
import { fileRoutes } from './files';
import { licenseRoutes } from './license';
import { appRoutes } from './apps';
import { operationRoutes } from './operations';
import { channelRoutes } from './channels';
import { messageRoutes } from './messages';
import { idpRoutes } from './idp';

export function apiRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  authRoutes(app, gate, ctx);
  userRoutes(app, gate, ctx);
  tenantRoutes(app, gate, ctx);
  settingsRoutes(app, gate, ctx);
  fileRoutes(app, gate, ctx);
  licenseRoutes(app, gate, ctx);
  appRoutes(app, gate, ctx);
  operationRoutes(app, gate, ctx);
  channelRoutes(app, gate, ctx);
  messageRoutes(app, gate, ctx);
  idpRoutes(app, gate, ctx);
}
