// The tables of migrations 0004, 0017, 0018, 0019 and 0027 (the OpenID Connect provider), typed beside the code that uses them
// and joined to the shared database type.
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/tables';

export interface OidcPayloadTable {
  /** oidc-provider's model name (AuthorizationCode, Session, Interaction, Grant …). */
  model: string;
  id: string;
  /** The model's JSON payload. */
  payload: string;
  grantId: string | null;
  /** The person the record is about (grants, sessions, codes, tokens); null for the others. */
  accountId: string | null;
  uid: string | null;
  userCode: string | null;
  /** Epoch ms; null: no expiry. */
  expiresAt: number | null;
  consumedAt: number | null;
}

interface OidcKeyTable {
  id: string;
  /** 'signing' (a private JWK) or 'cookie' (a random secret). */
  kind: string;
  material: string;
  createdAt: number;
}

interface OidcClientTable {
  appId: string;
  /** The client secret: oidc-provider compares it (and HS256 uses it as a key), so it is kept as
   *  is; it is answered once, when generated, and never again. Null: none (a public client, or a
   *  client switched back to confidential that has no new secret yet; migration 0027). */
  secret: string | null;
  /** When the secret was made; null without a secret. */
  rotatedAt: number | null;
  /** 'confidential' (a server app, authenticated by its secret) or 'public' (a single-page or
   *  native app, no secret; migration 0027). */
  clientType: Generated<string>;
  /** Where the app may send the browser after signing out, one URL a line (migration 0017). */
  postLogoutRedirectUris: string | null;
  /** 1: the app may use the client_credentials grant (migration 0018). */
  clientCredentials: Generated<number>;
  /** 1: a trusted app, its authorization skips the consent page (migration 0018). */
  trusted: Generated<number>;
  /** Where the provider posts logout tokens when the person's grants end (migration 0019). */
  backchannelLogoutUri: string | null;
  /** 1: the app's own resource gets JWT access tokens that it verifies with the JWKS (migration 0019). */
  jwtAccessTokens: Generated<number>;
}

/** A logout token to post to an app (signed when sent, retried by the outbox). */
interface OidcLogoutDeliveryTable {
  id: string;
  appId: string;
  /** The person (the token's `sub`). */
  subject: string;
  /** The provider session of that person with the app (the token's `sid`), when known. */
  sid: string | null;
  /** 'queued', 'sending' or 'failed' (a delivered token's row is deleted). */
  status: string;
  attempts: Generated<number>;
  nextAttemptAt: number | null;
  error: string | null;
  createdAt: number;
}

type OidcTables = { oidcPayloads: OidcPayloadTable; oidcKeys: OidcKeyTable; oidcClients: OidcClientTable; oidcLogoutDeliveries: OidcLogoutDeliveryTable };

export type OidcDatabase = Database & OidcTables;

export const oidcDb = (db: Kysely<Database>): Kysely<OidcDatabase> => db.withTables<OidcTables>();

/** Whether a value from a request (a token, a uid, a client id) could name a stored row at all:
 *  PostgreSQL's text holds no NUL character, and looking such a value up fails instead of finding
 *  nothing. The lookups answer "not found" for the others without asking the database. */
export const couldBeStored = (value: string): boolean => !value.includes('\u0000');
