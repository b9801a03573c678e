// An app's SAML metadata fetched by URL, attacked from outside (a hostile metadata host on a local
// port, the operator allowing 127.0.0.1): a redirect is not followed (it could lead past the
// outbound address guard), a huge document, a DOCTYPE with entities (XXE, "billion laughs") are
// refused with the field's error (400), never a server error; the honest document is read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import { startServer, type Client, type TestServer } from './harness';
import { ok } from './saml-support';
import { createKey } from '../../server/saml/keys';

let server: TestServer;
let admin: Client;
let host: Server;
let hostUrl: string;
let appId: string;
const hits: string[] = [];

before(async () => {
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
  appId = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Metadata_Url_App' }))).id;
  const key = await createKey('Metadata SP', Date.now());
  const metadata = generateServiceProviderMetadata({
    issuer: 'https://sp.example.test/metadata-url',
    callbackUrl: 'http://127.0.0.1:9/metadata-url/acs',
    publicCerts: key.certificate,
    wantAssertionsSigned: true,
  });
  const laughs = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&c;"/>`;
  const xxe = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY x SYSTEM "file:///etc/passwd">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&x;"/>`;
  host = createServer((request, response) => {
    hits.push(request.url!);
    if (request.url === '/redirect') return void response.writeHead(302, { location: `${hostUrl}/metadata` }).end();
    if (request.url === '/metadata') return void response.writeHead(200, { 'content-type': 'application/xml' }).end(metadata);
    if (request.url === '/laughs') return void response.writeHead(200, { 'content-type': 'application/xml' }).end(laughs);
    if (request.url === '/xxe') return void response.writeHead(200, { 'content-type': 'application/xml' }).end(xxe);
    if (request.url === '/huge') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.write(metadata.replace('</md:EntityDescriptor>', ''));
      for (let i = 0; i < 64 && !response.destroyed; i++) response.write(`<!-- ${'x'.repeat(16 * 1024)} -->`);
      return void response.end('</md:EntityDescriptor>');
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
after(async () => {
  await server.stop();
  host.close();
});

const register = (path: string) =>
  admin.put<{ fields?: { field: string; rule: string }[] }>(`/api/apps/${appId}/saml-provider`, { metadataUrl: `${hostUrl}${path}` });

test('holds: a redirect from the metadata URL is not followed (400 on metadataUrl)', async () => {
  const answer = await register('/redirect');
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.deepEqual(answer.body.data?.fields?.[0], { field: 'metadataUrl', rule: 'rule.samlMetadata' });
  assert.equal(hits.includes('/metadata'), false, 'the redirect was followed');
});

test('holds: a huge document, entity expansion and XXE are refused (400 on metadataUrl)', async () => {
  for (const path of ['/huge', '/laughs', '/xxe']) {
    const answer = await register(path);
    assert.equal(answer.status, 400, `${path}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.data?.fields?.[0]?.field, 'metadataUrl', path);
  }
});

test('holds: the honest document is read (control)', async () => {
  const answer = await register('/metadata');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
});
