// One conversation with a tenant's directory (ldapts): connect to the address the outbound guard
// checked (server/http/outbound-address.ts: a directory is usually on a private network, which the
// operator allows with IAM_OUTBOUND_ALLOW), StartTLS or ldaps:// with the connection's CA
// certificate, bind as the service account, and paged searches. Every failure names its step
// (connect, TLS, bind, search) so "Test connection", a synchronisation and a sign-in can say which.
// Filters are built from ldapts's filter classes (values escaped as RFC 4515 says), never by
// pasting text.
import type { ConnectionOptions } from 'node:tls';
import {
  AndFilter,
  Client,
  ConfidentialityRequiredError,
  EqualityFilter,
  OrFilter,
  type Entry,
  type Filter,
  FilterParser,
  InvalidCredentialsError,
  StrongAuthRequiredError,
} from 'ldapts';
import type { Ctx } from '../context';
import type { LdapMapping, LdapSettings, LdapStep } from '../../src/core/schemas/ldap';
import { checkOutboundUrl, OutboundAddressError, outboundPolicy } from '../http/outbound-address';
import { dnKey } from './dn';
import { type AccountState, disablesHere, STATE_ATTRIBUTES, stateOfBindRefusal, stateOfEntry } from './account-state';
import { PRIMARY_GROUP_ATTRIBUTES, primaryGroupSid } from './primary-group';

/** How long each step may take: a synchronisation's defaults, shorter for a sign-in's lookup. */
export interface DirectoryTimeouts {
  connectMs: number;
  operationMs: number;
}
const DEFAULT_TIMEOUTS: DirectoryTimeouts = { connectMs: 5_000, operationMs: 15_000 };
/** Entries per page of a search (Active Directory answers at most 1,000 a page, OpenLDAP 500 by default). */
const PAGE_SIZE = 500;
/** Levels of groups in groups followed at most (Active Directory's own tools stop far sooner in practice). */
export const MAX_NESTING = 10;

export class DirectoryError extends Error {
  constructor(
    readonly step: LdapStep,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'DirectoryError';
  }
}

/** A person as the directory describes them, in the fields kept here. */
export interface DirectoryPerson {
  dn: string;
  externalId: string;
  username: string;
  /** The second sign-in name (userPrincipalName), when the mapping names one. */
  principalName: string;
  realName: string;
  email: string;
  mobilePhone: string;
  /** Disabled here: disabled or expired in the directory (account-state.ts). */
  disabled: boolean;
  /** The state that keeps the person from signing in, if any (account-state.ts). */
  state: AccountState | null;
  /** The DNs of the groups the entry is in, from memberOf (as the directory spells them). */
  groups: string[];
  /** The SID (hex) of Active Directory's primary group of the entry, which memberOf leaves out
   *  (primary-group.ts); '' when the directory names none. */
  primaryGroup: string;
}

/** The groups of the group search: each group's DN by its members' DNs, and by its SID (hex: an
 *  entry's primary group, primary-group.ts; null for a SID that more than one group holds, which
 *  names no primary group), all DNs as dnKey writes them. */
export interface DirectoryGroups {
  byMember: Map<string, string[]>;
  bySid: Map<string, string | null>;
}

export interface DirectoryTarget {
  settings: LdapSettings;
  bindSecret: string;
}

/** Node's codes for a failed TLS handshake or certificate check. */
const TLS_CODE = /^(?:ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_|ERR_OSSL)/;

function stepOf(error: unknown, during: LdapStep): LdapStep {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TLS_CODE.test(code)) return 'tls';
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && during !== 'search') return 'connect';
  return during;
}

/** What the administrator is told of a failure: what to do where the directory's text does not say. */
function messageOf(error: unknown): string {
  if (error instanceof InvalidCredentialsError) return 'the directory refused the bind DN or its secret';
  // Active Directory's default (Samba: "Transport encryption required", code 8) and OpenLDAP's
  // `security simple_bind` (code 13) refuse a password sent over a plain connection.
  if (error instanceof StrongAuthRequiredError || error instanceof ConfidentialityRequiredError) {
    return `the directory takes a password only over an encrypted connection: use an ldaps:// URL or turn on StartTLS (it said: ${error.message})`;
  }
  return error instanceof Error ? error.message : String(error);
}

function failure(error: unknown, during: LdapStep): DirectoryError {
  if (error instanceof DirectoryError) return error;
  return new DirectoryError(stepOf(error, during), messageOf(error), { cause: error });
}

/** The URL to connect to: the address the outbound guard checked, never a second lookup. */
async function checkedUrl(ctx: Ctx, settings: LdapSettings): Promise<{ url: string; servername: string | undefined }> {
  const parsed = new URL(settings.url);
  const secure = parsed.protocol === 'ldaps:';
  const port = parsed.port || (secure ? '636' : '389');
  try {
    const target = await checkOutboundUrl(`http://${parsed.host}/`, outboundPolicy(ctx.config));
    const address = target.addresses[0]!.address;
    const host = address.includes(':') ? `[${address}]` : address;
    const name = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    return { url: `${secure ? 'ldaps' : 'ldap'}://${host}:${port}`, servername: /^[\d.]+$|:/.test(name) ? undefined : name };
  } catch (error) {
    if (error instanceof OutboundAddressError) throw new DirectoryError('connect', `the directory's address is not allowed: ${error.message}`);
    throw error;
  }
}

const tlsOptionsOf = (settings: LdapSettings, servername: string | undefined): ConnectionOptions => ({
  ...(settings.caCertificate ? { ca: settings.caCertificate } : {}),
  ...(servername ? { servername } : {}),
  minVersion: 'TLSv1.2',
});

/** The first value of an attribute, whatever the case of its name in the answer. */
function valueOf(entry: Entry, attribute: string): string {
  return valuesOf(entry, attribute)[0] ?? '';
}

function valuesOf(entry: Entry, attribute: string): string[] {
  if (!attribute) return [];
  const key = Object.keys(entry).find((name) => name.toLowerCase() === attribute.toLowerCase());
  if (!key) return [];
  const raw = entry[key]!;
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((value) => (Buffer.isBuffer(value) ? value.toString('hex') : value));
}

function personOf(entry: Entry, mapping: LdapMapping, now: number): DirectoryPerson {
  // Without an account control attribute the directory tells no state (OpenLDAP's preset).
  const state = mapping.accountControl
    ? stateOfEntry(
        {
          accountControl: valueOf(entry, mapping.accountControl),
          accountExpires: valueOf(entry, 'accountExpires'),
          pwdLastSet: valueOf(entry, 'pwdLastSet'),
        },
        now,
      )
    : null;
  return {
    dn: entry.dn,
    externalId: (mapping.externalId && valueOf(entry, mapping.externalId)) || entry.dn.toLowerCase(),
    username: valueOf(entry, mapping.username),
    principalName: valueOf(entry, mapping.principalName),
    realName: valueOf(entry, mapping.realName),
    email: valueOf(entry, mapping.email),
    mobilePhone: valueOf(entry, mapping.mobilePhone),
    disabled: disablesHere(state),
    state,
    groups: valuesOf(entry, mapping.memberOf),
    primaryGroup: mapping.memberOf ? primaryGroupSid(valueOf(entry, 'objectSid'), valueOf(entry, 'primaryGroupID')) : '',
  };
}

const personAttributes = (mapping: LdapMapping) => [
  ...[mapping.username, mapping.principalName, mapping.realName, mapping.email, mapping.mobilePhone, mapping.externalId, mapping.memberOf].filter(Boolean),
  ...(mapping.accountControl ? [mapping.accountControl, ...STATE_ATTRIBUTES] : []),
  // Memberships kept on the entry (Active Directory): its primary group is named apart.
  ...(mapping.memberOf ? PRIMARY_GROUP_ATTRIBUTES : []),
];

/** Binary attributes, read as Buffers (valuesOf writes them as hex). */
const binaryAttributes = (mapping: LdapMapping) => [...(mapping.externalId === 'objectGUID' ? ['objectGUID'] : []), 'objectSid'];

/** A filter an administrator typed, parsed (refused as the search step when it does not parse). */
function parsedFilter(text: string): Filter {
  try {
    return FilterParser.parseString(text);
  } catch (error) {
    throw new DirectoryError('search', `the filter ${text} is not an LDAP filter`, { cause: error });
  }
}

/** The user filter narrowed to one sign-in name (the value escaped by EqualityFilter): a name with
 *  an `@` may be the username or the principal name (userPrincipalName), when one is mapped. */
function userFilterFor(settings: LdapSettings, username: string): Filter {
  const { mapping } = settings;
  const attributes = [mapping.username, ...(mapping.principalName && username.includes('@') ? [mapping.principalName] : [])];
  const names = attributes.map((attribute) => new EqualityFilter({ attribute, value: username }));
  return new AndFilter({ filters: [parsedFilter(settings.userFilter), names.length === 1 ? names[0]! : new OrFilter({ filters: names })] });
}

/** Whether an entry is of exactly the typed name (letters compared without case: a matching rule
 *  may take other spellings, fullwidth letters, as the same name). */
export const isNamed = (person: DirectoryPerson, name: string) =>
  [person.username, person.principalName].some((own) => own !== '' && own.toLowerCase() === name.toLowerCase());

/** An open, bound connection to the directory as its service account. */
export class Directory {
  private constructor(
    private readonly client: Client,
    private readonly target: DirectoryTarget,
    private readonly connection: { url: string; servername: string | undefined },
    private readonly timeouts: DirectoryTimeouts,
    private readonly now: () => number,
  ) {}

  /** Connects (connect, TLS) and binds as the service account (bind). */
  static async open(ctx: Ctx, target: DirectoryTarget, timeouts = DEFAULT_TIMEOUTS): Promise<Directory> {
    const connection = await checkedUrl(ctx, target.settings);
    const client = await connected(connection, target.settings, timeouts);
    const directory = new Directory(client, target, connection, timeouts, () => ctx.now());
    if (!target.bindSecret) {
      await directory.close();
      throw new DirectoryError('bind', 'no bind secret is stored');
    }
    try {
      await client.bind(target.settings.bindDn, target.bindSecret);
    } catch (error) {
      await directory.close();
      throw failure(error, 'bind');
    }
    return directory;
  }

  /** Every person the user filter finds (paged), or just one sign-in name's. */
  async people(username?: string): Promise<DirectoryPerson[]> {
    const { settings } = this.target;
    const filter = username === undefined ? parsedFilter(settings.userFilter) : userFilterFor(settings, username);
    const entries = await this.search(filter, personAttributes(settings.mapping), binaryAttributes(settings.mapping));
    const now = this.now();
    return entries.map((entry) => personOf(entry, settings.mapping, now));
  }

  /** Every group of the group search by its members and by its SID: a member may be a group, so
   *  `byMember` also says which groups a group is in. */
  async groups(): Promise<DirectoryGroups> {
    const { settings } = this.target;
    const found: DirectoryGroups = { byMember: new Map(), bySid: new Map() };
    if (!settings.groupFilter || !settings.mapping.groupMember) return found;
    for (const group of await this.search(parsedFilter(settings.groupFilter), [settings.mapping.groupMember, 'objectSid'], ['objectSid'])) {
      for (const member of valuesOf(group, settings.mapping.groupMember)) {
        const key = dnKey(member);
        found.byMember.set(key, [...(found.byMember.get(key) ?? []), dnKey(group.dn)]);
      }
      const sid = valueOf(group, 'objectSid');
      if (sid) found.bySid.set(sid, found.bySid.has(sid) ? null : dnKey(group.dn));
    }
    return found;
  }

  /** The DNs of `wanted` that no group of the group search has (compared as dnKey writes them);
   *  none without a group search. */
  async unknownGroups(wanted: string[]): Promise<string[]> {
    const { groupFilter } = this.target.settings;
    if (!wanted.length || !groupFilter) return [];
    const known = new Set((await this.search(parsedFilter(groupFilter), [], [])).map((group) => dnKey(group.dn)));
    return wanted.filter((dn) => !known.has(dnKey(dn)));
  }

  /**
   * The groups (as dnKey writes them) one person is in, directly or through groups in groups: their
   * memberOf and primary group, then one search a level for the groups listing the level's people
   * or groups as members (breadth-first, each group once, at most MAX_NESTING levels). A sign-in's
   * counterpart of a synchronisation's groups(), which reads every group at once.
   */
  async groupsOf(person: DirectoryPerson): Promise<Set<string>> {
    const { groupFilter, mapping } = this.target.settings;
    const found = new Set(person.groups.map(dnKey));
    if (!groupFilter || !mapping.groupMember) return found;
    const isGroup = parsedFilter(groupFilter);
    const groupsWhere = (condition: Filter) => this.search(new AndFilter({ filters: [isGroup, condition] }), [], []);
    const primary = person.primaryGroup
      ? await groupsWhere(new EqualityFilter({ attribute: 'objectSid', value: Buffer.from(person.primaryGroup, 'hex') }))
      : [];
    // A SID two groups hold names neither, as in a synchronisation (groups()).
    const primaryGroups = primary.length === 1 ? primary : [];
    for (const group of primaryGroups) found.add(dnKey(group.dn));
    let level = [person.dn, ...person.groups, ...primaryGroups.map((group) => group.dn)];
    for (let depth = 0; level.length > 0 && depth < MAX_NESTING; depth++) {
      const groups = await groupsWhere(new OrFilter({ filters: level.map((dn) => new EqualityFilter({ attribute: mapping.groupMember, value: dn })) }));
      level = groups.map((group) => group.dn).filter((dn) => !found.has(dnKey(dn)) && found.add(dnKey(dn)));
    }
    return found;
  }

  /** Whether `password` is `dn`'s, by a bind on a connection of its own: 'match', 'wrong', or the
   *  account state Active Directory named instead (account-state.ts). Never binds without a
   *  password: an empty one would be an unauthenticated bind, which proves nothing (RFC 4513 §5.1.2). */
  async checkPassword(dn: string, password: string): Promise<'match' | 'wrong' | AccountState> {
    if (password.length === 0) return 'wrong';
    const client = await connected(this.connection, this.target.settings, this.timeouts);
    try {
      await client.bind(dn, password);
      return 'match';
    } catch (error) {
      if (error instanceof InvalidCredentialsError) return stateOfBindRefusal(error.message) ?? 'wrong';
      throw failure(error, 'bind');
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.client.unbind().catch(() => undefined);
  }

  private async search(filter: Filter, attributes: string[], explicitBufferAttributes: string[]): Promise<Entry[]> {
    try {
      const { searchEntries } = await this.client.search(this.target.settings.baseDn, {
        scope: 'sub',
        filter,
        attributes: attributes.length ? attributes : ['1.1'],
        explicitBufferAttributes,
        paged: { pageSize: PAGE_SIZE },
      });
      return searchEntries;
    } catch (error) {
      throw failure(error, 'search');
    }
  }
}

/** A client that reached the directory: connected, and through StartTLS when asked. */
async function connected(connection: { url: string; servername: string | undefined }, settings: LdapSettings, timeouts: DirectoryTimeouts): Promise<Client> {
  const secure = connection.url.startsWith('ldaps:');
  // ldapts keeps the constructor's tlsOptions for ldaps:// only (given with StartTLS they break the
  // upgrade) and writes into the object it is given: each use gets its own.
  const client = new Client({
    url: connection.url,
    connectTimeout: timeouts.connectMs,
    timeout: timeouts.operationMs,
    ...(secure ? { tlsOptions: tlsOptionsOf(settings, connection.servername) } : {}),
  });
  if (!settings.startTls || secure) return client;
  try {
    await client.startTLS(tlsOptionsOf(settings, connection.servername));
  } catch (error) {
    await client.unbind().catch(() => undefined);
    throw failure(error, 'tls');
  }
  return client;
}
