// Back-channel logout is no way into the server's network (server/http/outbound-address.ts): a
// logout URI on a loopback, link-local, private or IPv4-mapped address (or a name resolving to one)
// is refused when saved and gets nothing at sending time unless the operator allows private targets;
// the outbound fetch follows no redirect and connects only to the address it checked. Hostile: it
// failed on the code before its fix. The server here allows no private target (unlike
// sso-backchannel.test.ts, whose receivers listen on loopback).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import { until } from './receivers';
import { checkOutboundUrl, OutboundAddressError, outboundFetch } from '../../server/http/outbound-address';
import { queueBackchannelLogouts } from '../../server/oidc/backchannel';
import { oidcDb } from '../../server/oidc/tables';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

describe("back-channel logout is no way into the server's network", () => {
  let rp: RelyingParty;
  let receiver: Server;
  let receiverUrl = '';
  const received: string[] = [];

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        received.push(`${req.method} ${req.url} ${body}`);
        if (req.url === '/redirect') res.writeHead(302, { location: `${receiverUrl}/after-redirect` }).end();
        else res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    rp = await RelyingParty.register(server, admin, 'Backchannel_Target');
  });
  after(async () => {
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('saving a loopback, link-local, private or IPv4-mapped URI (or a name resolving to one) is refused with a field error', async () => {
    const port = new URL(receiverUrl).port;
    for (const uri of [
      `${receiverUrl}/logout`,
      `http://localhost:${port}/logout`,
      'http://169.254.169.254/latest/meta-data',
      `http://[::1]:${port}/logout`,
      `http://[::ffff:127.0.0.1]:${port}/logout`,
      'http://10.0.0.8/logout',
      'http://100.64.1.1/logout',
      'http://0.0.0.0/logout',
      'http://0x7f.0.0.1/logout',
    ]) {
      const answer = await admin.put(`/api/apps/${rp.appId}/oidc-client`, { backchannelLogoutUri: uri });
      assert.equal(answer.status, 400, `${uri}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(answer.body.data, { fields: [{ field: 'backchannelLogoutUri', rule: 'rule.outboundUrl' }] }, uri);
    }
    assert.equal(received.length, 0, received.join('\n'));
  });

  test("a loopback URI stored before the check gets nothing at sending time; with the operator's allow setting it gets the logout token", async () => {
    const db = oidcDb(server.app.ctx.db);
    await db
      .updateTable('oidcClients')
      .set({ backchannelLogoutUri: `${receiverUrl}/logout` })
      .where('appId', '=', rp.appId)
      .execute();
    const subject = `backchannel-${Date.now()}`;
    const delivery = () => db.selectFrom('oidcLogoutDeliveries').selectAll().where('subject', '=', subject).executeTakeFirst();
    // Queued as a sign-out queues it; the outbox's next poll posts it.
    await queueBackchannelLogouts(db, subject, [{ clientId: rp.appId }]);
    const failed = await until(async () => (await delivery())?.error, 'the refused attempt recorded');
    assert.match(failed, /not a public address/);
    assert.equal(received.length, 0, received.join('\n'));
    await db.deleteFrom('oidcLogoutDeliveries').where('subject', '=', subject).execute();

    // The operator's IAM_OUTBOUND_ALLOW_PRIVATE=1, as the server would have read it at start.
    server.app.ctx.config.outboundAllowPrivate = true;
    try {
      const allowed = await admin.put(`/api/apps/${rp.appId}/oidc-client`, { backchannelLogoutUri: `${receiverUrl}/logout` });
      assert.equal(allowed.status, 200, `loopback allowed: ${JSON.stringify(allowed.body)}`);
      await queueBackchannelLogouts(db, subject, [{ clientId: rp.appId }]);
      await until(() => received.find((line) => line.startsWith('POST /logout logout_token=')), 'the logout token received');
    } finally {
      server.app.ctx.config.outboundAllowPrivate = false;
    }
  });

  test('outboundFetch follows no redirect, connects only to the address it checked, and refuses IPv4-mapped and named loopback targets', async () => {
    received.length = 0;
    const redirected = await outboundFetch(`${receiverUrl}/redirect`, { method: 'POST', body: 'x', allowPrivate: true });
    assert.equal(redirected.status, 302);
    assert.deepEqual(
      received.map((line) => line.split(' ')[1]),
      ['/redirect'],
      'the redirect target was not requested',
    );

    // A name resolving to a public address is connected to at that address: here a test resolver
    // answers the receiver's loopback address for a made-up name (allowed), and the request reaches
    // it with the name as Host, without asking the system resolver (which does not know the name).
    const pinned = await outboundFetch(`http://pinned.invalid:${new URL(receiverUrl).port}/pinned`, {
      allowPrivate: true,
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    assert.equal(pinned.status, 200);
    assert.equal(await pinned.text(), 'ok');

    for (const url of [
      'http://localhost/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[::127.0.0.1]/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://224.0.0.1/',
    ]) {
      await assert.rejects(checkOutboundUrl(url), (error) => error instanceof OutboundAddressError && error.reason === 'address', url);
      await assert.rejects(outboundFetch(url), OutboundAddressError, url);
    }
    // A name that resolves to a private address among public ones is refused too.
    await assert.rejects(
      checkOutboundUrl('http://mixed.invalid/', {
        lookup: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '10.1.2.3', family: 4 },
        ],
      }),
      OutboundAddressError,
    );
    for (const url of ['ftp://example.com/', 'http://user:secret@example.com/', 'not a url']) {
      await assert.rejects(checkOutboundUrl(url), (error) => error instanceof OutboundAddressError && error.reason === 'url', url);
    }
    const publicTarget = await checkOutboundUrl('https://[2606:4700::1111]/');
    assert.deepEqual(publicTarget.addresses, [{ address: '2606:4700::1111', family: 6 }]);
  });
});
