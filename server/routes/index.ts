// Every API call, registered under /api. Route files are Fastify plugins (given the gate and the
// context); the sign-in routes (auth.ts), not yet converted, are a function called with the same.
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
import { menuPlanRoutes } from './menu-plans';
import { appMenuRoutes } from './app-menus';
import { auditRoutes } from './audit';
import { channelRoutes } from './channels';
import { messageRoutes } from './messages';
import { Outbox } from '../channels/outbox';
import { idpRoutes } from './idp';
import { ssoRoutes } from './sso';
import { samlRoutes } from './saml';
import { idpLoginRoutes } from './idp-login';
import { totpRoutes } from './totp';
import { passkeyRoutes } from './passkeys';
import { passwordResetRoutes } from './password-reset';
import { emailVerificationRoutes } from './email-verification';
import { sessionProbeRoutes } from './session-probe';
import { scimTokenRoutes } from './scim-tokens';
import { accountSecurityRoutes } from './account-security';
import { webhookRoutes } from './webhooks';
import { webhookFollower } from '../webhooks/queue';
import { userImportRoutes } from './user-import';
import { ldapRoutes } from './ldap';
import { directorySyncTask } from '../ldap/scheduler';

export function apiRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  void app.register(authRoutes, { gate, ctx });
  void app.register(userRoutes, { gate, ctx });
  void app.register(tenantRoutes, { gate, ctx });
  void app.register(userSessionRoutes, { gate, ctx });
  void app.register(userBulkRoutes, { gate, ctx });
  void app.register(settingsRoutes, { gate, ctx });
  void app.register(fileRoutes, { gate, ctx });
  void app.register(licenseRoutes, { gate, ctx });
  void app.register(userImportRoutes, { gate, ctx });
  void app.register(appRoutes, { gate, ctx });
  void app.register(menuPlanRoutes, { gate, ctx });
  void app.register(appMenuRoutes, { gate, ctx });
  void app.register(auditRoutes, { gate, ctx });
  void app.register(channelRoutes, { gate, ctx });
  // The outbox worker delivers queued messages while the server runs.
  const outbox = new Outbox(ctx);
  app.addHook('onReady', async () => outbox.start());
  app.addHook('onClose', () => outbox.stop());
  // Webhooks: deliveries are derived from audit records (queued with them) and posted by the outbox.
  ctx.audit.follow(webhookFollower(ctx, () => outbox.kick()));
  void app.register(webhookRoutes, { gate, ctx });
  void app.register(messageRoutes, { gate, ctx, outbox });
  void app.register(idpRoutes, { gate, ctx });
  void app.register(ssoRoutes, { gate, ctx });
  void app.register(samlRoutes, { gate, ctx });
  void app.register(idpLoginRoutes, { gate, ctx });
  void app.register(totpRoutes, { gate, ctx });
  void app.register(accountSecurityRoutes, { gate, ctx });
  void app.register(passkeyRoutes, { gate, ctx });
  void app.register(passwordResetRoutes, { gate, ctx });
  void app.register(emailVerificationRoutes, { gate, ctx });
  void app.register(sessionProbeRoutes, { gate, ctx });
  // SCIM provisioning tokens (the protocol itself is outside /api: server/scim/plugin.ts).
  void app.register(scimTokenRoutes, { gate, ctx });
  // Directory connections, and their scheduled synchronisations while the server runs.
  void app.register(ldapRoutes, { gate, ctx });
  const directorySync = directorySyncTask(ctx, (error) => app.log.error({ err: error }, 'directory synchronisation'));
  app.addHook('onReady', async () => directorySync.start());
  app.addHook('onClose', () => directorySync.stop());
}
