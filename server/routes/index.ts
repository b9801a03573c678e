// Every API call, registered under /api. Route files are Fastify plugins (given the gate and the
// context), or, not yet converted, functions called with the same.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import type { Gate } from '../http/route';
import { authRoutes } from './auth';
import { userRoutes } from './users';
import { userSessionRoutes } from './user-sessions';
import { userBulkRoutes } from './user-bulk';
import { tenantRoutes } from './tenants';
import { settingsRoutes } from './settings';
import { fileRoutes } from './files';
import { licenseRoutes } from './license';
import { appRoutes } from './apps';
import { operationRoutes } from './operations';
import { auditRoutes } from './audit';
import { menuBindingRoutes } from './menu-bindings';
import { channelRoutes } from './channels';
import { messageRoutes } from './messages';
import { Outbox } from '../channels/outbox';
import { idpRoutes } from './idp';
import { ssoRoutes } from './sso';
import { idpLoginRoutes } from './idp-login';
import { totpRoutes } from './totp';
import { passkeyRoutes } from './passkeys';
import { passwordResetRoutes } from './password-reset';
import { emailVerificationRoutes } from './email-verification';
import { sessionProbeRoutes } from './session-probe';

export function apiRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  authRoutes(app, gate, ctx);
  void app.register(userRoutes, { gate, ctx });
  void app.register(tenantRoutes, { gate, ctx });
  userSessionRoutes(app, gate, ctx);
  userBulkRoutes(app, gate, ctx);
  settingsRoutes(app, gate, ctx);
  fileRoutes(app, gate, ctx);
  licenseRoutes(app, gate, ctx);
  void app.register(appRoutes, { gate, ctx });
  operationRoutes(app, gate, ctx);
  auditRoutes(app, gate, ctx);
  menuBindingRoutes(app, gate, ctx);
  channelRoutes(app, gate, ctx);
  // The outbox worker delivers queued messages while the server runs.
  const outbox = new Outbox(ctx);
  app.addHook('onReady', async () => outbox.start());
  app.addHook('onClose', () => outbox.stop());
  messageRoutes(app, gate, ctx, outbox);
  idpRoutes(app, gate, ctx);
  ssoRoutes(app, gate, ctx);
  idpLoginRoutes(app, gate, ctx);
  totpRoutes(app, gate, ctx);
  void app.register(passkeyRoutes, { gate, ctx });
  passwordResetRoutes(app, gate, ctx);
  emailVerificationRoutes(app, gate, ctx);
  sessionProbeRoutes(app, gate, ctx);
}
