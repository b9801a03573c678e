// Outside attack D: where a customer's own systems meet the product, configured their way. First the
// SAML identity provider against pysaml2 (Debian's python3-pysaml2 7, xmlsec1), a service-provider
// library none of the other tests use, configured as its docs' example SP is (test/server/python-saml-sps.py):
// signed AuthnRequests with its default algorithms, want_assertions_signed, an encryption key in
// its metadata, the metadata it produces imported as an administrator would. Then Lasso as
// mod_auth_mellon drives it, and OneLogin's python3-saml with its default settings (the end).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, transform, ok, type Client, type TestServer } from './harness';
import { consentAndAnswer } from './saml-support';
import { createKey } from '../../server/saml/keys';

const SP_SCRIPT = join(import.meta.dirname, 'python-saml-sps.py');
const SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA512 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512';

let server: TestServer;
let admin: Client;
let browser: Client;
let dir: string;
let idpMetadata: string;
/** The pysaml2 process (one for the file) and the answers it still owes, in order. */
let python: ChildProcessWithoutNullStreams;
const waiting: ((line: string) => void)[] = [];

before(async () => {
  server = await startServer();
  admin = await server.admin();
  dir = mkdtempSync(join(tmpdir(), 'attack-d-'));
  await ok(admin.post('/api/user', { username: 'py-person', realName: 'Py_Person', email: 'py.person@example.test', password: transform('Secret123') }));
  browser = server.client();
  assert.equal((await browser.login('py-person', 'Secret123')).status, 200);
  idpMetadata = await (await fetch(`${server.base}/api/saml/metadata`)).text();
  python = spawn('/usr/bin/python3', [SP_SCRIPT]);
  python.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  createInterface({ input: python.stdout }).on('line', (line) => waiting.shift()?.(line));
  // Without python3-pysaml2, python3-lasso or xmlsec1 the process ends: each step fails, saying so.
  python.on('exit', (code) => {
    for (const answer of waiting.splice(0))
      answer(JSON.stringify({ crash: `python3 exited (${code}): apt-get install python3-pysaml2 python3-lasso python3-onelogin-saml2 xmlsec1` }));
  });
});
after(async () => {
  python.stdin.end();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** One pysaml2 SP: its keys, its base URL, and the app it is registered on. */
interface PySp {
  base: string;
  key: string;
  cert: string;
  appId: string;
  options: Record<string, unknown>;
}

async function pysaml2<T>(sp: Omit<PySp, 'appId'>, cmd: string, extra: Record<string, unknown> = {}): Promise<T> {
  const input = JSON.stringify({ cmd, base: sp.base, key: sp.key, cert: sp.cert, idp_metadata: idpMetadata, ...sp.options, ...extra });
  const line = await new Promise<string>((resolve) => {
    waiting.push(resolve);
    python.stdin.write(`${input}\n`);
  });
  const answer = JSON.parse(line) as T & { crash?: string };
  assert.equal(answer.crash, undefined, `pysaml2 ${cmd} crashed`);
  return answer;
}

/** An app registered with the metadata pysaml2 (or, `mellon`, mod_auth_mellon) makes for itself,
 *  as an administrator pastes it. */
async function pysaml2App(
  name: string,
  options: Record<string, unknown> = {},
  metadataCommand = 'metadata',
  settings: Record<string, unknown> = {},
): Promise<PySp> {
  const app = await ok(admin.post<{ id: string }>('/api/apps', { name, entrypoint: 'http://127.0.0.1:9/', callbackUrl: 'http://127.0.0.1:9/callback' }));
  const key = await createKey(`${name} SP`, Date.now());
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  writeFileSync(keyFile, key.privateKey);
  writeFileSync(certFile, key.certificate);
  const sp = { base: `http://127.0.0.1:9/${name}`, key: keyFile, cert: certFile, options };
  const { metadata } = await pysaml2<{ metadata: string }>(sp, metadataCommand);
  const saved = await admin.put(`/api/apps/${app.id}/saml-provider`, { metadataXml: metadata, ...settings });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return { ...sp, appId: app.id };
}

interface Parsed {
  error?: string;
  name_id?: string;
  name_id_format?: string;
  ava?: Record<string, string[]>;
  encrypted?: boolean;
  session_index?: string;
}

/** SP-initiated sign-in through `who`'s browser; answers what pysaml2 reads from the Response. */
async function spInitiated(sp: PySp, options: { binding?: 'redirect' | 'post'; sigalg?: string } = {}, who = browser) {
  const request = await pysaml2<{ id: string; url?: string; data?: string }>(sp, 'authn', options);
  let first: Response;
  if (request.url) {
    const url = new URL(request.url);
    assert.equal(url.origin, server.base);
    first = await who.raw('GET', url.pathname + url.search);
  } else {
    const fields = Object.fromEntries([...request.data!.matchAll(/name="(SAMLRequest|RelayState)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    first = await who.raw('POST', '/api/saml/sso', new URLSearchParams(fields), { origin: 'http://127.0.0.1:9' });
  }
  assert.equal(first.status, 303, `the IdP refused the request: ${await refusalStatus(first)}`);
  const { form } = await consentAndAnswer(who, first.headers.get('location')!);
  const parsed = await pysaml2<Parsed>(sp, 'response', { saml_response: form.fields.SAMLResponse, outstanding: { [request.id]: 'relay' } });
  return { request, form, parsed };
}

/** The status the IdP answered the SP with when it refused: the first answer is a post to the ACS. */
async function refusalStatus(first: Response): Promise<string> {
  const html = await first.text();
  const response = /name="SAMLResponse" value="([^"]*)"/.exec(html)?.[1];
  if (!response) return `${first.status} ${first.headers.get('location') ?? html.slice(0, 200)}`;
  return [
    ...Buffer.from(response, 'base64')
      .toString()
      .matchAll(/StatusCode Value="([^"]*)"/g),
  ]
    .map((m) => m[1])
    .join(' ');
}

test('pysaml2, its default configuration (AuthnRequest signed with its default algorithm, HTTP-Redirect): signed in', async () => {
  // pysaml2 7 signs with RSA-SHA1 / SHA-1 digests unless told otherwise (saml2.xmldsig sig_default).
  const sp = await pysaml2App('Py_Default');
  const request = await pysaml2<{ id: string; url: string }>(sp, 'authn');
  const url = new URL(request.url);
  const first = await browser.raw('GET', url.pathname + url.search);
  assert.equal(first.status, 303, `refused: ${await refusalStatus(first)}`);
});

test('pysaml2 signing with RSA-SHA256 (HTTP-Redirect): the encrypted, signed assertion is accepted by pysaml2', async () => {
  // Its metadata carries an encryption key; the administrator turns encryption on (off by default).
  const sp = await pysaml2App('Py_Sha256', {}, 'metadata', { encryptAssertions: true });
  const { parsed, form } = await spInitiated(sp, { sigalg: SHA256 });
  assert.equal(parsed.error, undefined);
  assert.equal(parsed.name_id, 'py.person@example.test');
  assert.match(Buffer.from(form.fields.SAMLResponse!, 'base64').toString(), /EncryptedAssertion/, 'pysaml2 published an encryption key');
  assert.deepEqual(parsed.ava?.username, ['py-person']);
});

test('pysaml2 signing with RSA-SHA512 (HTTP-POST): signed in', async () => {
  const sp = await pysaml2App('Py_Sha512');
  const { parsed } = await spInitiated(sp, { binding: 'post', sigalg: SHA512, digest_alg: 'http://www.w3.org/2001/04/xmlenc#sha512' } as never);
  assert.equal(parsed.error, undefined);
});

// mod_auth_mellon: Lasso, its metadata (mellon_create_metadata.sh: a signing and an encryption key,
// the HTTP-POST service as index 0 isDefault beside Artifact and PAOS ones), an HTTP-Redirect
// AuthnRequest with NameIDPolicy transient, AllowCreate, ProtocolBinding HTTP-POST and the ACS URL.

async function mellonSignIn(sp: PySp) {
  const request = await pysaml2<{ id: string; url: string }>(sp, 'mellon_authn');
  const url = new URL(request.url);
  const first = await browser.raw('GET', url.pathname + url.search);
  assert.equal(first.status, 303, `the IdP refused the request: ${await refusalStatus(first)}`);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  assert.equal(form.action, `${sp.base}/postResponse`);
  return pysaml2<Parsed & { session?: string }>(sp, 'mellon_response', { saml_response: form.fields.SAMLResponse, request_id: request.id });
}

test('mod_auth_mellon (Lasso) signing with RSA-SHA256: Lasso accepts the Response', async () => {
  const sp = await pysaml2App('Mellon_Sha256', { signature_method: 4 /* lasso.SIGNATURE_METHOD_RSA_SHA256 */ }, 'mellon_metadata');
  const parsed = await mellonSignIn(sp);
  assert.equal(parsed.error, undefined);
  assert.ok(parsed.name_id);
});

test('Lasso with its library default signature method (RSA-SHA1, as Lasso-based SPs other than mellon send): signed in', async () => {
  const sp = await pysaml2App('Mellon_Default', {}, 'mellon_metadata');
  const parsed = await mellonSignIn(sp);
  assert.equal(parsed.error, undefined);
});

test("mod_auth_mellon's Single Logout (its metadata's only SingleLogoutService is HTTP-Redirect): the LogoutResponse comes back by HTTP-Redirect and Lasso accepts it", async () => {
  const sp = await pysaml2App('Mellon_Logout', { signature_method: 4 }, 'mellon_metadata');
  const person = server.client();
  assert.equal((await person.login('py-person', 'Secret123')).status, 200);
  const saved = browser;
  browser = person;
  let signedIn: Parsed & { session?: string };
  try {
    signedIn = await mellonSignIn(sp);
  } finally {
    browser = saved;
  }
  assert.equal(signedIn.error, undefined);
  const request = await pysaml2<{ url: string }>(sp, 'mellon_logout', { session: signedIn.session });
  const url = new URL(request.url);
  const answer = await person.raw('GET', url.pathname + url.search);
  assert.equal((await person.get('/api/cas/session')).status, 401, 'the console session ended');
  // mod_auth_mellon reads a LogoutResponse from the query of its HTTP-Redirect endpoint only
  // (am_handle_logout): a page posting it there is not read, and the person is left on an error.
  assert.equal(answer.status, 303, `answered ${answer.status}: ${(await answer.clone().text()).slice(0, 200)}`);
  const back = new URL(answer.headers.get('location')!);
  assert.equal(back.origin + back.pathname, `${sp.base}/logout`);
  const parsed = await pysaml2<{ error?: string; status?: string }>(sp, 'mellon_logout_response', { session: signedIn.session, query: back.search.slice(1) });
  assert.equal(parsed.error, undefined);
  assert.equal(parsed.status, 'urn:oasis:names:tc:SAML:2.0:status:Success');
});

test('pysaml2 with allow_unsolicited: an IdP-initiated sign-in from the portal is accepted', async () => {
  const sp = await pysaml2App('Py_Unsolicited', { allow_unsolicited: true });
  // The portal shows the app to everyone once its menu plan has a visible item.
  await ok(admin.post('/api/menu-plans', { appId: sp.appId, name: 'Menu', items: [{ name: 'Start', path: '/start' }] }));
  const launched = await browser.post<{ redirectURL: string }>(`/api/saml/apps/${sp.appId}/launch`);
  assert.equal(launched.status, 200, JSON.stringify(launched.body));
  const { form } = await consentAndAnswer(browser, launched.body.data.redirectURL);
  const parsed = await pysaml2<Parsed>(sp, 'response', { saml_response: form.fields.SAMLResponse, outstanding: {} });
  assert.equal(parsed.error, undefined);
  assert.equal(parsed.name_id, 'py.person@example.test');
});

test('a pysaml2 AuthnRequest replayed (the same signed URL twice) is refused the second time', async () => {
  const sp = await pysaml2App('Py_Replay');
  const request = await pysaml2<{ id: string; url: string }>(sp, 'authn', { sigalg: SHA256 });
  const url = new URL(request.url);
  assert.equal((await browser.raw('GET', url.pathname + url.search)).status, 303);
  const again = await server.client().raw('GET', url.pathname + url.search);
  assert.match(await refusalStatus(again), /RequestDenied/);
});

// OneLogin's python3-saml (Debian's python3-onelogin-saml2) with its default settings: strict
// (Destination, InResponseTo, audience, Recipient, NotOnOrAfter, a signed Response or assertion),
// nothing signed by the SP, its AuthnRequest (HTTP-Redirect) asking for the first NameID format of
// the IdP's metadata, its LogoutRequest unsigned (HTTP-Redirect), from the person's browser.

test('python3-saml, its default settings: SP-initiated sign-in validates, and its Single Logout ends the session and is answered', async () => {
  const sp = await pysaml2App('OneLogin_Default', {}, 'onelogin_metadata');
  const person = server.client();
  assert.equal((await person.login('py-person', 'Secret123')).status, 200);
  const request = await pysaml2<{ id: string; url: string }>(sp, 'onelogin_authn');
  const url = new URL(request.url);
  assert.equal(url.origin, server.base);
  const first = await person.raw('GET', url.pathname + url.search);
  assert.equal(first.status, 303, `the IdP refused the request: ${await refusalStatus(first)}`);
  const { form } = await consentAndAnswer(person, first.headers.get('location')!);
  assert.equal(form.action, `${sp.base}/?acs`);
  const parsed = await pysaml2<Parsed>(sp, 'onelogin_response', { saml_response: form.fields.SAMLResponse, request_id: request.id });
  assert.equal(parsed.error, undefined);
  assert.equal(parsed.name_id, 'py.person@example.test');
  assert.deepEqual(parsed.ava?.username, ['py-person']);

  const logout = await pysaml2<{ id: string; url: string }>(sp, 'onelogin_logout', {
    name_id: parsed.name_id,
    name_id_format: parsed.name_id_format,
    session_index: parsed.session_index,
  });
  const sent = new URL(logout.url);
  const answer = await person.raw('GET', sent.pathname + sent.search);
  assert.equal((await person.get('/api/cas/session')).status, 401, 'the console session ended');
  assert.equal(answer.status, 303, `answered ${answer.status}: ${(await answer.clone().text()).slice(0, 200)}`);
  const back = new URL(answer.headers.get('location')!);
  assert.equal(back.origin + back.pathname, `${sp.base}/`);
  const read = await pysaml2<{ error?: string; status?: string }>(sp, 'onelogin_logout_response', { query: back.search.slice(1), request_id: logout.id });
  assert.equal(read.error, undefined);
  assert.equal(read.status, 'Success');
});
