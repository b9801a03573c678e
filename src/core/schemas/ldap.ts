// A tenant's directory connection (LDAP or Active Directory, docs/ldap.md): its settings as an
// administrator saves them (the bind secret is write-only: an empty one keeps the stored secret),
// as answered (never the secret), the "Test connection" answer and the synchronisation reports.
import * as v from 'valibot';
import { id } from './common';

export const LDAP_PRESETS = ['activeDirectory', 'openLdap'] as const;
export type LdapPreset = (typeof LDAP_PRESETS)[number];

/** The steps "Test connection" and a synchronisation go through, in order. */
export const LDAP_STEPS = ['connect', 'tls', 'bind', 'search'] as const;
export type LdapStep = (typeof LDAP_STEPS)[number];

/** Text of one line, bounded (DNs, filters, attribute names). */
const line = (max: number) =>
  v.pipe(v.string('rule.required'), v.maxLength(max, `rule.ldapLine?max=${max}`), v.regex(/^[^\r\n\0]*$/, `rule.ldapLine?max=${max}`));
const required = (max: number) => v.pipe(line(max), v.minLength(1, 'rule.required'));
/** A NetBIOS domain name: up to 15 characters, none of those Windows forbids in it. */
const NETBIOS_DOMAIN = /^(?:[A-Za-z0-9][A-Za-z0-9!#$%&'().^_{}~-]{0,14})?$/;
const attribute = v.pipe(v.string('rule.required'), v.regex(/^(?:[A-Za-z][\w-]{0,63})?$/, 'rule.ldapAttribute'));

/** Which directory attribute fills which field of a person here. */
const ldapMapping = v.object({
  /** The sign-in name (sAMAccountName, userPrincipalName, uid). */
  username: v.pipe(attribute, v.minLength(1, 'rule.required')),
  /** A second sign-in name of the `name@suffix` form (Active Directory's userPrincipalName): a
   *  typed name with an `@` is looked up by it too. Empty (or left out): none. */
  principalName: v.optional(attribute, ''),
  realName: attribute,
  email: attribute,
  mobilePhone: attribute,
  /** The entry's stable id (objectGUID, entryUUID); empty: the DN. */
  externalId: attribute,
  /** The groups the entry is in, on the entry itself (memberOf); empty: found by the group search. */
  memberOf: attribute,
  /** Active Directory's userAccountControl (its disabled, locked and password bits, with
   *  accountExpires and pwdLastSet beside it: server/ldap/account-state.ts). Empty: none. */
  accountControl: attribute,
  /** The group attribute that lists its members' DNs (member for groupOfNames). */
  groupMember: attribute,
});
export type LdapMapping = v.InferOutput<typeof ldapMapping>;

/** A directory group (its DN) whose members hold a role here. */
const ldapGroupRole = v.object({ groupDn: required(1024), roleId: id });

const ldapSettings = v.object({
  /** ldap://host[:port] or ldaps://host[:port]. */
  url: v.pipe(required(512), v.regex(/^ldaps?:\/\/[A-Za-z0-9.[\]:-]+(?::\d{1,5})?\/?$/i, 'rule.ldapUrl')),
  /** Upgrade an ldap:// connection with StartTLS before binding. */
  startTls: v.boolean('rule.required'),
  /** PEM CA certificate(s) the directory's certificate must chain to (empty: the system's). */
  caCertificate: v.pipe(
    v.string('rule.required'),
    v.maxLength(65_536, 'rule.maxLength?max=65536'),
    v.regex(/^(?:|[\s\S]*-----BEGIN CERTIFICATE-----[\s\S]*)$/, 'rule.ldapCertificate'),
  ),
  bindDn: required(1024),
  baseDn: required(1024),
  /** The Windows (NetBIOS) domain name people type before a backslash (`CORP` of `CORP\jdoe`):
   *  such a name signs in only against this connection. Empty (or left out): none. */
  netbiosDomain: v.optional(v.pipe(v.string('rule.required'), v.regex(NETBIOS_DOMAIN, 'rule.ldapNetbiosDomain')), ''),
  userFilter: required(2048),
  groupFilter: line(2048),
  preset: v.picklist(LDAP_PRESETS, 'rule.required'),
  mapping: v.object(ldapMapping.entries, 'rule.required'),
  groupRoles: v.pipe(v.array(ldapGroupRole, 'rule.required'), v.maxLength(200, 'rule.maxLength?max=200')),
  /** Minutes between scheduled synchronisations (0: only on demand). */
  syncIntervalMinutes: v.pipe(
    v.number('rule.positiveInteger'),
    v.integer('rule.positiveInteger'),
    v.minValue(0, 'rule.positiveInteger'),
    v.maxValue(10_080, 'rule.positiveInteger'),
  ),
  /** Whether the tenant's people without a directory entry may still sign in with a local password. */
  allowLocalPasswords: v.boolean('rule.required'),
});
export type LdapSettings = v.InferOutput<typeof ldapSettings>;

const connectionName = v.pipe(required(50), v.regex(/^\S(?:.*\S)?$/, 'rule.scimTokenName'));

const FIRST_SIGN_IN =
  'Whether this directory is asked at first sign-ins (a username nobody here has yet, docs/ldap.md): only a platform administrator changes it';

/** PUT /tenants/:id/ldap: `bindSecret` empty keeps the stored one (required the first time);
 *  `firstSignIn` left out keeps the stored choice (off for a new connection). */
export const ldapConnectionBody = v.object({
  name: connectionName,
  enabled: v.boolean('rule.required'),
  settings: v.object(ldapSettings.entries, 'rule.required'),
  bindSecret: v.pipe(v.string('rule.required'), v.maxLength(1024, 'rule.maxLength?max=1024')),
  firstSignIn: v.optional(v.pipe(v.boolean('rule.required'), v.description(FIRST_SIGN_IN))),
});

export const ldapConnection = v.object({
  id: v.string(),
  tenantId: v.string(),
  name: v.string(),
  enabled: v.boolean(),
  firstSignIn: v.pipe(v.boolean(), v.description(FIRST_SIGN_IN)),
  settings: ldapSettings,
  hasBindSecret: v.boolean(),
  lastSyncAt: v.nullable(v.number()),
  version: v.number(),
});
export type LdapConnection = v.InferOutput<typeof ldapConnection>;

/** The tenant's connection, or null when it has none. */
export const ldapConnectionAnswer = v.nullable(ldapConnection);

/** POST /tenants/:id/ldap/test: each step passed, or the one that failed with why. */
export const ldapTestAnswer = v.object({
  ok: v.boolean(),
  passed: v.array(v.picklist(LDAP_STEPS)),
  failedStep: v.nullable(v.picklist(LDAP_STEPS)),
  message: v.string(),
  /** How many entries the user filter found (up to the first page), when the search ran. */
  found: v.nullable(v.number()),
  /** The mapped group DNs (groupRoles) the group search does not find: a typo, or a group since deleted. */
  unknownGroups: v.array(v.string()),
});
export type LdapTestAnswer = v.InferOutput<typeof ldapTestAnswer>;

/** A directory person left alone: someone here already has the username or e-mail. */
export const ldapConflict = v.object({ dn: v.string(), username: v.string(), field: v.picklist(['username', 'email', 'invalid']), detail: v.string() });

export const ldapSyncSummary = v.object({
  seen: v.number(),
  created: v.number(),
  updated: v.number(),
  disabled: v.number(),
  roleChanges: v.number(),
  conflicts: v.array(ldapConflict),
  /** Why a failed synchronisation stopped (it changed nothing then). */
  error: v.nullable(v.object({ step: v.picklist(LDAP_STEPS), message: v.string() })),
});
export type LdapSyncSummary = v.InferOutput<typeof ldapSyncSummary>;

export const ldapSyncReport = v.object({
  id: v.string(),
  trigger: v.picklist(['manual', 'schedule']),
  startedAt: v.number(),
  finishedAt: v.number(),
  outcome: v.picklist(['success', 'failure']),
  summary: ldapSyncSummary,
});
export type LdapSyncReport = v.InferOutput<typeof ldapSyncReport>;

export const ldapSyncReports = v.array(ldapSyncReport);
