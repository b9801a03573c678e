// What every route module gets: the database, the configuration and the shared services.
import type { Kysely } from 'kysely';
import type { Database } from './db/tables';
import type { Engine } from './db/connect';
import type { ServerConfig } from './config';
import type { SettingsStore } from './settings';
import type { AuditLog } from './audit';
import type { SessionService } from './auth/sessions';
import type { PublicOrigin } from './http/public-origin';

export interface Ctx {
  db: Kysely<Database>;
  engine: Engine;
  config: ServerConfig;
  settings: SettingsStore;
  audit: AuditLog;
  sessions: SessionService;
  /** Our public origin and OIDC issuer (configured, never from a request). */
  site: PublicOrigin;
  now(): number;
}
