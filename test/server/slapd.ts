// A throwaway OpenLDAP server for the directory tests (Debian's slapd, never the system service):
// its own slapd.conf, schema and mdb database in a temp dir, loaded with slapadd before it starts
// (thousands of entries in a second), listening on a free loopback port, with StartTLS from a CA and
// server certificate made here by the openssl CLI. Besides inetOrgPerson and groupOfNames it knows
// Active Directory's sAMAccountName, userPrincipalName, userAccountControl, accountExpires,
// pwdLastSet, memberOf, objectSid, primaryGroupID, and the class user with objectCategory and
// isCriticalSystemObject (small auxiliary classes; objectCategory is a plain string here, a DN that
// `objectCategory=person` matches by its class's name in Active Directory), so the Active Directory
// preset's filter, attributes, account states and primary groups are tested against a real server
// too.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir, readFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';

export const SUFFIX = 'dc=example,dc=org';
const PEOPLE = `ou=people,${SUFFIX}`;
export const GROUPS = `ou=groups,${SUFFIX}`;
/** The read-only service account a connection binds as (docs/ldap.md, OpenLDAP steps). */
export const READER = { dn: `cn=iam-reader,${SUFFIX}`, secret: 'reader-secret-1' };
const ROOT = { dn: `cn=admin,${SUFFIX}`, secret: 'root-secret-1' };

/** Active Directory's attributes, for the Active Directory preset's test (private OIDs). */
const AD_SCHEMA = `
attributetype ( 1.3.6.1.4.1.55555.1.1 NAME 'sAMAccountName' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.2 NAME 'userAccountControl' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.3 NAME 'memberOf' EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 )
attributetype ( 1.3.6.1.4.1.55555.1.4 NAME 'userPrincipalName' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.5 NAME 'accountExpires' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.6 NAME 'pwdLastSet' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.7 NAME 'objectSid' EQUALITY octetStringMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.8 NAME 'primaryGroupID' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.55555.2.1 NAME 'adAccount' AUXILIARY MAY ( sAMAccountName $ userAccountControl $ memberOf $ userPrincipalName $ accountExpires $ pwdLastSet $ objectSid $ primaryGroupID ) )
objectclass ( 1.3.6.1.4.1.55555.2.2 NAME 'adGroup' AUXILIARY MAY objectSid )
attributetype ( 1.3.6.1.4.1.55555.1.9 NAME 'objectCategory' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.10 NAME 'isCriticalSystemObject' EQUALITY booleanMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.7 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.55555.2.3 NAME 'user' AUXILIARY MAY ( objectCategory $ isCriticalSystemObject ) )
`;

export interface Person {
  uid: string;
  cn?: string;
  mail?: string;
  password?: string;
  /** AD-shaped entry: sAMAccountName = uid, userAccountControl, memberOf, and when given
   *  userPrincipalName, accountExpires (a FILETIME), pwdLastSet, objectSid (`S-1-5-21-…`) and
   *  primaryGroupID. */
  ad?: {
    userAccountControl: number;
    memberOf?: string[];
    userPrincipalName?: string;
    accountExpires?: string;
    pwdLastSet?: string;
    objectSid?: string;
    primaryGroupID?: number;
  };
}

/** An objectSid line: the SID `S-1-5-21-…` in Active Directory's binary form (revision, count of
 *  sub-authorities, 6-byte authority, sub-authorities little endian), base64 as LDIF writes binary. */
export function sidLdif(sid: string): string {
  const [revision, authority, ...parts] = sid.split('-').slice(1).map(Number);
  const bytes = Buffer.alloc(8 + 4 * parts.length);
  bytes.writeUInt8(revision!, 0);
  bytes.writeUInt8(parts.length, 1);
  bytes.writeUIntBE(authority!, 2, 6);
  parts.forEach((part, index) => bytes.writeUInt32LE(part, 8 + 4 * index));
  return `objectSid:: ${bytes.toString('base64')}`;
}

export const personDn = (uid: string) => `uid=${uid},${PEOPLE}`;

export function personLdif(person: Person): string {
  const lines = [
    `dn: ${personDn(person.uid)}`,
    'objectClass: inetOrgPerson',
    ...(person.ad ? ['objectClass: adAccount'] : []),
    `uid: ${person.uid}`,
    `cn: ${person.cn ?? person.uid}`,
    `sn: ${person.uid}`,
    ...(person.mail ? [`mail: ${person.mail}`] : []),
    ...(person.password ? [`userPassword: ${person.password}`] : []),
    ...(person.ad
      ? [
          `sAMAccountName: ${person.uid}`,
          `userAccountControl: ${person.ad.userAccountControl}`,
          ...(person.ad.memberOf ?? []).map((dn) => `memberOf: ${dn}`),
          ...(['userPrincipalName', 'accountExpires', 'pwdLastSet', 'primaryGroupID'] as const).flatMap((name) =>
            person.ad![name] ? [`${name}: ${person.ad![name]}`] : [],
          ),
          ...(person.ad.objectSid ? [sidLdif(person.ad.objectSid)] : []),
        ]
      : []),
  ];
  return lines.join('\n');
}

export const groupLdif = (cn: string, members: string[]) =>
  [`dn: cn=${cn},${GROUPS}`, 'objectClass: groupOfNames', `cn: ${cn}`, ...members.map((dn) => `member: ${dn}`)].join('\n');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A CA and a certificate for 127.0.0.1 and localhost signed by it (openssl CLI). */
async function makeCertificates(dir: string) {
  const file = (name: string) => join(dir, name);
  await writeFile(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Test directory CA',
  ]);
  await run('openssl', [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=localhost',
  ]);
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('ext.cnf'),
  ]);
  return { ca: file('ca.pem'), cert: file('server.pem'), key: file('server.key') };
}

export interface Slapd {
  url: string;
  port: number;
  /** The CA certificate (PEM) the server's certificate chains to. */
  caPem: string;
  /** Adds or changes entries (ldapmodify as the directory's root). */
  modify(ldif: string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

export interface SlapdOptions {
  /** Entries loaded by slapadd before the server starts (after the base, people and groups OUs). */
  ldif?: string;
  /** Extra slapd.conf lines in the database section (docs/ldap.md's steps). */
  databaseConfig?: string;
}

/** Starts a throwaway slapd; call destroy() at the end. */
export async function startSlapd(options: SlapdOptions = {}): Promise<Slapd> {
  const dir = await mkdtemp(join(tmpdir(), 'iam-slapd-'));
  const data = join(dir, 'data');
  await mkdir(data);
  const certs = await makeCertificates(dir);
  await writeFile(join(dir, 'ad.schema'), AD_SCHEMA);
  const conf = join(dir, 'slapd.conf');
  await writeFile(
    conf,
    `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include ${join(dir, 'ad.schema')}
pidfile ${join(dir, 'slapd.pid')}
modulepath /usr/lib/ldap
moduleload back_mdb
TLSCACertificateFile ${certs.ca}
TLSCertificateFile ${certs.cert}
TLSCertificateKeyFile ${certs.key}
# An unauthenticated bind (a DN and an empty password) succeeds here: the tests prove that no
# sign-in ever relies on one.
allow bind_anon_dn
database mdb
maxsize 1073741824
suffix "${SUFFIX}"
rootdn "${ROOT.dn}"
rootpw ${ROOT.secret}
directory ${data}
index objectClass,uid,sAMAccountName,userPrincipalName eq
${options.databaseConfig ?? ''}
`,
  );
  const base = [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example`,
    `dn: ${PEOPLE}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ${GROUPS}\nobjectClass: organizationalUnit\nou: groups`,
  ];
  await writeFile(join(dir, 'load.ldif'), [...base, options.ldif ?? ''].filter(Boolean).join('\n\n') + '\n');
  await run(SLAPADD, ['-q', '-f', conf, '-l', join(dir, 'load.ldif')], { maxBuffer: 16 * 1024 * 1024 });
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const slapd: Slapd = {
    url,
    port,
    caPem: await readFile(certs.ca, 'utf8'),
    async modify(ldif) {
      await new Promise<void>((resolve, reject) => {
        const tool = spawn('ldapmodify', ['-x', '-H', url, '-D', ROOT.dn, '-w', ROOT.secret], { stdio: ['pipe', 'ignore', 'pipe'] });
        let errors = '';
        tool.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
        tool.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ldapmodify: ${errors}`))));
        tool.stdin.end(ldif);
      });
    },
    async start() {
      // -d 0: stays in the foreground (our child) and logs nothing.
      child = spawn(SLAPD, ['-f', conf, '-h', `${url}/`, '-d', '0'], { stdio: 'ignore' });
      const deadline = Date.now() + 10_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}`);
        const open = await new Promise<boolean>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.destroy();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        });
        if (open) return;
        if (Date.now() > deadline) throw new Error('slapd did not start listening within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
    async destroy() {
      await slapd.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await slapd.start();
  return slapd;
}
