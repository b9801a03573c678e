// Row types of every table, as Kysely sees them through the CamelCasePlugin (snake_case in SQL,
// camelCase here). Times are epoch milliseconds; booleans are 0/1 integers on both engines;
// JSON columns hold text.
import type { Generated } from 'kysely';
import type { DeliveryErrorCode } from '../../src/core/schemas/delivery-error';

export interface TenantTable {
  id: string;
  parentId: string | null;
  /** Materialised path of ids, '/root/…/self/': a subtree is `path LIKE '<path>%'`. */
  path: string;
  name: string;
  type: string;
  scope: number;
  status: number;
  description: string | null;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface UserTable {
  id: string;
  username: string;
  realName: string;
  email: string | null;
  mobilePhone: string | null;
  description: string | null;
  availabilityStatus: number;
  avatar: string | null;
  extraProp: string;
  userType: number;
  tenantId: string | null;
  isAdmin: number;
  isMaster: number;
  passwordHash: string;
  passwordChangedAt: number;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface AppTable {
  id: string;
  name: string;
  detail: string | null;
  entrypoint: string | null;
  callbackUrl: string | null;
  isMaster: number;
  status: number;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface AppAdminTable {
  appId: string;
  userId: string;
}

export interface PrivilegeTable {
  id: string;
  appId: string;
  parentId: string | null;
  name: string;
  key: string;
  sort: number;
  path: string | null;
  createdAt: number;
}

export interface RoleTable {
  id: string;
  appId: string;
  name: string;
  description: string | null;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface RolePrivilegeTable {
  roleId: string;
  privilegeId: string;
}

export interface RoleMemberTable {
  roleId: string;
  userId: string;
}

export interface MenuPlanTable {
  id: string;
  /** null: the global menu. */
  appId: string | null;
  name: string;
  description: string | null;
  items: string;
  version: number;
  createdAt: number;
  updatedAt: number;
}

interface SettingTable {
  key: string;
  value: string;
  version: number;
  updatedAt: number;
}

export interface ChannelTable {
  id: string;
  name: string;
  serviceType: string;
  vendor: string;
  config: string;
  enabled: number;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface MessageTable {
  id: string;
  recipientId: string | null;
  /** Where an outgoing message goes (phone, address, URL); null for in-site messages. */
  address: string | null;
  serviceType: string;
  vendor: string | null;
  title: string;
  content: string;
  status: string;
  pushTime: number;
  readAt: number | null;
  createdAt: number;
  /** Who sent it (migration 0021); null: the console itself (shown as "System"). */
  senderId: string | null;
  /** The sender's name as it was when sent; null with senderId. */
  senderName: string | null;
  /** A console notice's facts (migration 0036, server/auth/new-device-notice.ts): its title and
   *  content are written in each reader's language from them; null for other messages. */
  notice: string | null;
}

interface FileTable {
  /** SHA-256 of the stored bytes (content addressing) plus the extension. */
  id: string;
  kind: string;
  mime: string;
  size: number;
  data: Uint8Array;
  createdBy: string | null;
  createdAt: number;
}

interface SessionTable {
  /** Public handle (SessionUser.sessionId). */
  id: string;
  /** SHA-256 of the secret the client holds (cookie or token); the secret is never stored. */
  secretHash: string;
  userId: string;
  authMode: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

interface CaptchaTable {
  id: string;
  clientHash: string;
  answerHash: string;
  expiresAt: number;
}

interface LoginThrottleTable {
  /** The normalised username typed at sign-in, known or not (so answers do not reveal which). */
  username: string;
  failures: number;
  lockedUntil: number | null;
  updatedAt: number;
}

interface RateLimitTable {
  /** Route (method and URL) and client address. */
  key: string;
  hits: number;
  windowEnds: number;
}

interface LoginChallengeTable {
  id: string;
  userId: string;
  step: string;
  codeHash: string;
  attempts: number;
  expiresAt: number;
}

export interface IdpTable {
  id: string;
  code: string;
  name: string;
  type: string;
  config: string;
  enabled: number;
  createdAt: number;
}

export interface IdpTicketTable {
  ticketHash: string;
  idpCode: string;
  token: string;
  subject: string;
  profile: string;
  userId: string | null;
  expiresAt: number;
  /** SHA-256 of the flow cookie of the browser that started the sign-in (null: redeemable nowhere). */
  browserHash: string | null;
}

interface IdpLinkTable {
  idpCode: string;
  subject: string;
  userId: string;
  createdAt: number;
}

export interface AuditTable {
  id: Generated<number>;
  at: number;
  actorId: string | null;
  actorName: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  /** Tenant of the target (or actor): lets a tenant administrator read their subtree's events. */
  tenantId: string | null;
  /** The tenant the target left, when the event moved it to `tenantId` (migration
   *  0052_audit_former_tenant): that tenant's administrators read the event too. */
  formerTenantId: string | null;
  ip: string | null;
  success: number;
  detail: string;
  /** The target's name when the event was recorded (migration 0030_audit_story). */
  targetName: string | null;
  /** The bulk action's or import's own event, for each of its rows' events. */
  parentId: number | null;
}

/** A tenant's SCIM bearer token (server/services/scim-tokens.ts); the secret itself is never stored. */
export interface ScimTokenTable {
  id: string;
  tenantId: string;
  name: string;
  secretHash: string;
  createdBy: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** The externalId a tenant's (scopeId) provisioning client gave a user or a group. */
interface ScimUserLinkTable {
  scopeId: string;
  userId: string;
  externalId: string;
}
interface ScimContactTypeTable {
  userId: string;
  emailType: string | null;
  phoneType: string | null;
}
interface ScimUserAttributeTable {
  userId: string;
  /** A JSON object. */
  attributes: string;
}
interface ScimGroupLinkTable {
  scopeId: string;
  groupId: string;
  externalId: string;
}

/** A person's passkeys (migration 0025, which replaced the id/user_id table of 0022). */
export interface PasskeyTable {
  id: string;
  userId: string;
  /** The credential's id as the authenticator gave it (base64url); one account per credential. */
  credentialId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter (0: it keeps none). */
  counter: number;
  /** JSON array of the transports the browser reported (usb, internal, hybrid, …). */
  transports: string;
  /** 'singleDevice' or 'multiDevice' (a synced passkey). */
  deviceType: string;
  backedUp: number;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

interface WebauthnChallengeTable {
  /** The base64url challenge itself (what the authenticator signs). */
  challenge: string;
  /** 'register' | 'login' | 'second-step': a challenge is only good for the ceremony it was issued for. */
  purpose: string;
  /** The account it was issued for (registration, second step); null for a passkey sign-in. */
  userId: string | null;
  /** The session that asked for it (registration). */
  sessionId: string | null;
  expiresAt: number;
}

/** A person's recovery codes (migration 0026): keyed digests, each used once. */
interface RecoveryCodeTable {
  id: string;
  userId: string;
  codeHash: string;
  usedAt: number | null;
  createdAt: number;
}

/** The devices a person signed in from (migration 0026): the digest of the device cookie's id. */
interface KnownDeviceTable {
  userId: string;
  deviceHash: string;
  firstSeenAt: number;
  lastSeenAt: number;
}

export interface Database {
  tenants: TenantTable;
  users: UserTable;
  apps: AppTable;
  appAdmins: AppAdminTable;
  privileges: PrivilegeTable;
  roles: RoleTable;
  rolePrivileges: RolePrivilegeTable;
  roleMembers: RoleMemberTable;
  menuPlans: MenuPlanTable;
  settings: SettingTable;
  channels: ChannelTable;
  messages: MessageTable;
  files: FileTable;
  sessions: SessionTable;
  captchas: CaptchaTable;
  loginThrottle: LoginThrottleTable;
  rateLimits: RateLimitTable;
  loginChallenges: LoginChallengeTable;
  idps: IdpTable;
  idpTickets: IdpTicketTable;
  idpLinks: IdpLinkTable;
  auditLog: AuditTable;
  scimTokens: ScimTokenTable;
  scimUserLinks: ScimUserLinkTable;
  scimContactTypes: ScimContactTypeTable;
  scimUserAttributes: ScimUserAttributeTable;
  scimGroupLinks: ScimGroupLinkTable;
  passkeys: PasskeyTable;
  webauthnChallenges: WebauthnChallengeTable;
  recoveryCodes: RecoveryCodeTable;
  knownDevices: KnownDeviceTable;
  webhooks: WebhookTable;
  webhookDeliveries: WebhookDeliveryTable;
  webhookAttempts: WebhookAttemptTable;
  userImportJobs: UserImportJobTable;
  idempotencyKeys: IdempotencyKeyTable;
  samlServiceProviders: SamlServiceProviderTable;
  samlIdpKeys: SamlIdpKeyTable;
  samlRequests: SamlRequestTable;
  samlMessageIds: SamlMessageIdTable;
  samlSessions: SamlSessionTable;
  ldapConnections: LdapConnectionTable;
  ldapUserLinks: LdapUserLinkTable;
  ldapSyncReports: LdapSyncReportTable;
  samlLogoutDeliveries: SamlLogoutDeliveryTable;
  samlFrontLogouts: SamlFrontLogoutTable;
  samlConsents: SamlConsentTable;
}

/** An app as a SAML service provider (migration 0040, server/saml/). `acsUrls` is JSON: [{ url, binding }]. */
export interface SamlServiceProviderTable {
  appId: string;
  entityId: string;
  acsUrls: string;
  sloUrl: string | null;
  sloBinding: string | null;
  nameIdFormat: string;
  signingCert: string | null;
  encryptionCert: string | null;
  wantRequestsSigned: number;
  signResponse: number;
  signAssertion: number;
  metadataUrl: string | null;
  createdAt: number;
  updatedAt: number;
  /** 'aes256-gcm' or 'aes256-cbc' (null: aes256-gcm; migration 0042). */
  assertionEncryption: string | null;
  /** 1: the app's assertions are encrypted for its encryption certificate (its administrator's
   *  choice; migration 0051 turned it on for the apps that had a certificate). */
  encryptAssertions: number;
}

/** The identity provider's signing keys: 'active' signs; 'next' or 'previous' is published beside it. */
interface SamlIdpKeyTable {
  id: string;
  state: string;
  privateKey: string;
  certificate: string;
  createdAt: number;
}

/** A sign-in to an app waiting for the person (SP- or IdP-initiated). */
interface SamlRequestTable {
  id: string;
  appId: string;
  requestId: string | null;
  acsUrl: string;
  relayState: string | null;
  /** 'allow' or 'deny', once the person answered (`answeredBy`). */
  answer: string | null;
  answeredBy: string | null;
  expiresAt: number;
  /** ForceAuthn: only a console sign-in at or after this moment answers (migration 0045). */
  freshAfter: number | null;
  /** The NameID format the request asked for (NameIdFormat); null: the app's setting (migration 0053). */
  nameIdFormat: string | null;
}

/** A message id already used (an AuthnRequest's or LogoutRequest's, keyed with its issuer). */
interface SamlMessageIdTable {
  id: string;
  expiresAt: number;
}

/** A session an app was given by an assertion (its SessionIndex), ended by Single Logout. */
interface SamlSessionTable {
  sessionIndex: string;
  appId: string;
  userId: string;
  nameId: string;
  /** The NameID's format (NameIdFormat); null, for sessions given before migration 0053: the app's setting. */
  nameIdFormat: string | null;
  consoleSessionId: string | null;
  createdAt: number;
}

/** The first answer to a create sent with an Idempotency-Key (migration 0030, server/http/idempotency.ts). */
interface IdempotencyKeyTable {
  /** Whose key: the signed-in user's id, or `scim:<token id>`. */
  caller: string;
  key: string;
  /** SHA-256 of the method, path and body the key was first used with. */
  fingerprint: string;
  /** The envelope answered (JSON). */
  answer: string;
  createdAt: number;
}

/** An outbound webhook endpoint (migration 0024): the events of `tenantId`'s subtree (null: every
 *  event, a platform administrator's endpoint) it chose, signed with `secret` (and, until
 *  `previousSecretUntil`, also with the secret it replaced). */
export interface WebhookTable {
  id: string;
  tenantId: string | null;
  url: string;
  description: string;
  /** JSON array of webhook event types (src/core/schemas/webhooks.ts). */
  events: string;
  enabled: number;
  /** `whsec_` + base64: kept as is, since every delivery is signed with it (HMAC). */
  secret: string;
  secretRotatedAt: number;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  version: number;
  createdAt: number;
  updatedAt: number;
}

/** One event on its way to one endpoint; `messageId` is its webhook-id on every attempt. */
export interface WebhookDeliveryTable {
  id: string;
  webhookId: string;
  messageId: string;
  eventType: string;
  /** The signed JSON body. */
  payload: string;
  status: string;
  attempts: Generated<number>;
  maxAttempts: number;
  /** When the next attempt is due (null: now); while sending, when the claim lapses. */
  nextAttemptAt: number | null;
  createdAt: number;
  finishedAt: number | null;
}

export interface WebhookAttemptTable {
  id: string;
  deliveryId: string;
  at: number;
  durationMs: number;
  statusCode: number | null;
  /** Why the post failed (migration 0029; null on success and on rows from before it). */
  errorCode: DeliveryErrorCode | null;
  /** The failure's raw detail; on rows from before 0029, the reason in English words. */
  error: string | null;
  /** The start of the receiver's answer (bounded). */
  answer: string | null;
  /** 1 when the receiver was a private address (migration 0035): its answer is for platform administrators only. */
  privateTarget: Generated<number>;
}

/** A user CSV import or its dry run: progress and each refused row's problems (JSON). */
export interface UserImportJobTable {
  id: string;
  actorId: string;
  mode: string;
  status: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  problems: string;
  /** Why the job stopped: 'restarted' or 'unexpected' (src/core/schemas/user-import.ts). */
  error: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  /** The process running it (server/process-identity.ts; migration 0034); null before. */
  runner: string | null;
}

/** A tenant's directory connection (migration 0041, server/ldap): `settings` is the JSON of
 *  LdapSettings (src/core/schemas/ldap.ts); the bind secret is never answered. */
export interface LdapConnectionTable {
  id: string;
  tenantId: string;
  name: string;
  settings: string;
  bindSecret: string;
  enabled: number;
  /** Asked at first sign-ins (1), as only the platform administrator decides (migration 0048). */
  firstSignIn: number;
  /** Until when one process synchronises it (0: nobody). */
  claimedUntil: Generated<number>;
  lastSyncAt: number | null;
  version: number;
  createdAt: number;
  updatedAt: number;
}

/** A person a directory connection created, by the entry's stable id (and its DN, to bind as). */
interface LdapUserLinkTable {
  connectionId: string;
  userId: string;
  externalId: string;
  dn: string;
  /** The entry's principal name (userPrincipalName) in lower case, '' when none (migration 0054). */
  principalName: Generated<string>;
}

/** One synchronisation: `summary` is the JSON of its LdapSyncSummary (counts, conflicts, error). */
interface LdapSyncReportTable {
  id: string;
  connectionId: string;
  trigger: string;
  startedAt: number;
  finishedAt: number;
  outcome: string;
  summary: string;
}

/** A LogoutRequest to post to an app's SOAP Single Logout service (migration 0042,
 *  server/saml/back-channel.ts); a delivered one's row is deleted. */
interface SamlLogoutDeliveryTable {
  id: string;
  appId: string;
  userId: string;
  nameId: string;
  /** As the session's (SamlSessionTable). */
  nameIdFormat: string | null;
  sessionIndex: string;
  /** 'queued' or 'sending'. */
  status: string;
  attempts: Generated<number>;
  nextAttemptAt: number | null;
  error: string | null;
  createdAt: number;
}

/** An app a browser signing out still has to visit (front-channel Single Logout, migration 0042,
 *  server/saml/front-channel.ts), one row per app session, grouped by the sign-out's chain. */
interface SamlFrontLogoutTable {
  chainId: string;
  sessionIndex: string;
  appId: string;
  userId: string;
  nameId: string;
  /** As the session's (SamlSessionTable). */
  nameIdFormat: string | null;
  expiresAt: number;
}

/** A person's consent to a SAML app, for what the app is told (fingerprint; migration 0042). */
interface SamlConsentTable {
  userId: string;
  appId: string;
  fingerprint: string;
  createdAt: number;
}
