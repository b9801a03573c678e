// Web Browser SSO against a service-provider library the server does not use (node-saml): the
// AuthnRequest in the HTTP-Redirect and the HTTP-POST binding, signed and not, IdP-initiated from
// the portal; the Response and its assertion signed, for the right audience and recipient, with the
// person's attributes in this app; a denial answered to the app; an audit record per sign-in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { consentAndAnswer, postedForm, RSA_SIGNATURES, ServiceProvider, signedRedirectQuery, signedXmlMessage, type RsaHash } from './saml-support';

let server: TestServer;
let admin: Client;
let browser: Client;
let personId: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  personId = (
    await ok(
      admin.post<{ id: string }>('/api/user', {
        username: 'saml-person',
        realName: 'Saml_Person',
        email: 'saml.person@example.test',
        password: transform('Secret123'),
      }),
    )
  ).id;
  browser = server.client();
  assert.equal((await browser.login('saml-person', 'Secret123')).status, 200);
});
after(() => server.stop());

async function signIn(provider: ServiceProvider, relayState = 'relay-1') {
  const first = await provider.sendAuthnRequest(browser, relayState);
  assert.equal(first.status, 303, await first.clone().text());
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  assert.equal(form.action, provider.acsUrl);
  assert.equal(form.fields.RelayState, relayState);
  return { form, ...(await provider.sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! })) };
}

test('HTTP-Redirect AuthnRequest: node-saml accepts the signed response and reads the person', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Redirect_App');
  const { profile } = await signIn(provider);
  assert.equal(profile?.nameID, 'saml.person@example.test');
  assert.equal(profile?.email, 'saml.person@example.test');
  assert.equal(profile?.name, 'Saml_Person');
  assert.equal(profile?.username, 'saml-person');
});

test('HTTP-POST AuthnRequest, signed by the SP that asked to sign: accepted', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Post_App', { binding: 'HTTP-POST', signRequests: true });
  const { profile } = await signIn(provider, 'post-relay');
  assert.equal(profile?.nameID, 'saml.person@example.test');
});

test('AuthnRequests signed with RSA-SHA512 by node-saml, in either binding: accepted', async () => {
  for (const binding of ['HTTP-Redirect', 'HTTP-POST'] as const) {
    const provider = await ServiceProvider.register(server, admin, `Sha512_${binding}_App`, {
      binding,
      signRequests: true,
      saml: { signatureAlgorithm: 'sha512' },
    });
    const { profile } = await signIn(provider);
    assert.equal(profile?.nameID, 'saml.person@example.test', binding);
  }
});

test('a signed AuthnRequest: RSA-SHA1, RSA-SHA256, RSA-SHA384 and RSA-SHA512 go to the sign-in page in either binding; another algorithm is answered RequestDenied, saying which are accepted', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Sig_Alg_App', { signRequests: true });
  // node-saml's AuthnRequest (with its Destination) unsigned, to be signed here with each hash.
  const unsigned = ServiceProvider.library(server, provider.entityId, provider.acsUrl, [], provider.key, { binding: 'HTTP-POST' });
  const authnRequest = async () => {
    const message = (await unsigned.getAuthorizeMessageAsync('relay', undefined, {})) as Record<string, string>;
    return inflateRawSync(Buffer.from(message.SAMLRequest!, 'base64')).toString(); // node-saml deflates it in either binding
  };
  // `algorithm`: named (SigAlg, SignatureMethod) in place of the one signed with.
  const send = {
    'HTTP-Redirect': async (hash: RsaHash, algorithm?: string) => {
      let query = signedRedirectQuery('SAMLRequest', await authnRequest(), provider.key.privateKey, 'relay', hash);
      if (algorithm) query = query.replace(encodeURIComponent(RSA_SIGNATURES[hash]), encodeURIComponent(algorithm));
      return browser.raw('GET', `/api/saml/sso?${query}`);
    },
    'HTTP-POST': async (hash: RsaHash, algorithm?: string) => {
      let signed = signedXmlMessage(await authnRequest(), provider.key.privateKey, hash);
      if (algorithm) signed = signed.replace(`Algorithm="${RSA_SIGNATURES[hash]}"`, `Algorithm="${algorithm}"`);
      return browser.raw('POST', '/api/saml/sso', new URLSearchParams({ SAMLRequest: Buffer.from(signed).toString('base64') }), {
        origin: 'http://127.0.0.1:9',
      });
    },
  };
  for (const [binding, sent] of Object.entries(send)) {
    for (const hash of ['sha1', 'sha256', 'sha384', 'sha512'] as const) {
      const answer = await sent(hash);
      assert.equal(answer.status, 303, `${binding} ${hash}: ${await answer.text()}`);
      assert.match(answer.headers.get('location') ?? '', /^\/saml\/authorize\?request=/, `${binding} ${hash}`);
    }
    const md5 = await sent('sha256', 'http://www.w3.org/2001/04/xmldsig-more#rsa-md5');
    assert.equal(md5.status, 200, binding);
    const { action, fields } = postedForm(await md5.text());
    assert.equal(action, provider.acsUrl, binding);
    const response = Buffer.from(fields.SAMLResponse!, 'base64').toString();
    assert.match(response, /status:RequestDenied/, binding);
    assert.match(response, /<samlp:StatusMessage>The signature algorithm is not supported: sign with RSA-SHA1, RSA-SHA256, RSA-SHA384 or RSA-SHA512</, binding);
    assert.doesNotMatch(response, /Assertion/, binding);
  }
});

test("IdP-initiated from the portal: the app's roles and privileges, an audit record per sign-in", async () => {
  const provider = await ServiceProvider.register(server, admin, 'Portal_App', { saml: { validateInResponseTo: 'never' as never } });
  const privilege = await ok(admin.post<{ id: string }>(`/api/apps/${provider.appId}/privileges`, { name: 'Expense approve', key: 'expenseApprove' }));
  const role = await ok(admin.post<{ id: string }>(`/api/apps/${provider.appId}/roles`, { name: 'Approver', description: 'Approves' }));
  await ok(admin.put(`/api/apps/${provider.appId}/roles/${role.id}/privileges`, { privilegeIds: [privilege.id] }));
  await ok(admin.put(`/api/apps/${provider.appId}/roles/${role.id}/members`, { userIds: [personId] }));
  const { redirectURL } = await ok(browser.post<{ redirectURL: string }>(`/api/saml/apps/${provider.appId}/launch`));
  const { form } = await consentAndAnswer(browser, redirectURL);
  const { profile } = await provider.sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! });
  assert.equal(profile?.nameID, 'saml.person@example.test');
  assert.equal(profile?.roles, 'Approver');
  assert.equal(profile?.privileges, 'expenseApprove');
  const audit = await ok(admin.get<{ list: { action: string; detail?: unknown }[] }>('/api/audit?action=app.sign_in'));
  assert.ok(
    audit.list.some((entry) => entry.action === 'app.sign_in'),
    JSON.stringify(audit).slice(0, 300),
  );
});

test('a denial is posted to the app as RequestDenied, with no assertion', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Denied_App');
  const first = await provider.sendAuthnRequest(browser);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!, false);
  const xml = Buffer.from(form.fields.SAMLResponse!, 'base64').toString();
  assert.match(xml, /status:RequestDenied/);
  assert.doesNotMatch(xml, /<saml:Assertion/);
  await assert.rejects(provider.sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! }));
});

test('the answer page is used once: a second visit posts nothing', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Once_App');
  const first = await provider.sendAuthnRequest(browser);
  const { id } = await consentAndAnswer(browser, first.headers.get('location')!);
  const again = await browser.raw('GET', `/api/saml/requests/${id}/answer`);
  assert.equal(again.status, 404);
});

test('docs/saml.md: every attribute of its table is in the assertion', async () => {
  const docs = readFileSync(new URL('../../docs/saml.md', import.meta.url), 'utf8');
  const names = [...docs.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]!);
  assert.ok(names.length >= 8, names.join());
  const provider = await ServiceProvider.register(server, admin, 'Docs_App');
  const { form } = await signIn(provider);
  const xml = Buffer.from(form.fields.SAMLResponse!, 'base64').toString();
  const present = new Set([...xml.matchAll(/<saml:Attribute Name="(\w+)"/g)].map((match) => match[1]));
  // A person without a tenant or phone has no value for those: the rest are all there.
  for (const name of names.filter((name) => !['phone', 'tenantId', 'tenant', 'roles', 'privileges'].includes(name))) assert.ok(present.has(name), name);
  for (const name of present) assert.ok(names.includes(name!), `${name} is not in docs/saml.md`);
});
