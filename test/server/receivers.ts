// Real receivers on 127.0.0.1 for the channel tests: an SMTP server that captures mail (with
// password authentication), one HTTP server standing in for an SMS vendor, a DingTalk robot
// (checking DingTalk's signature like the real one) and a WeCom robot, and a webhook endpoint.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import assert from 'node:assert/strict';

interface Mail {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

export interface SmtpReceiver {
  port: number;
  mails: Mail[];
  stop(): Promise<void>;
}

/** An SMTP server without TLS that accepts `user`/`password` (plain AUTH) and keeps every mail. */
export async function startSmtp(user: string, password: string): Promise<SmtpReceiver> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface HttpCall {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface HttpReceiver {
  base: string;
  calls: HttpCall[];
  /** The status the SMS vendor answers (to simulate an outage). */
  smsStatus: number;
  stop(): Promise<void>;
}

/** DingTalk's check: sign = base64(HMAC-SHA256(secret, "timestamp\nsecret")), within an hour. */
function dingTalkSignatureOk(query: URLSearchParams, secret: string): boolean {
  const timestamp = query.get('timestamp') ?? '';
  const expected = createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
  return query.get('sign') === expected && Math.abs(Date.now() - Number(timestamp)) < 3_600_000;
}

/**
 * /sms: the SMS vendor (answers `smsStatus`); /dingtalk/send?access_token=T: a DingTalk robot whose
 * token is `robotToken` and signing secret `dingTalkSecret`; /wecom/send?key=K: a WeCom robot.
 */
export async function startHttpReceiver(options: { robotToken: string; dingTalkSecret: string }): Promise<HttpReceiver> {
  const calls: HttpCall[] = [];
  const receiver: HttpReceiver = { base: '', calls, smsStatus: 200, stop: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const text = Buffer.concat(chunks).toString('utf8');
      calls.push({ path: url.pathname, query: url.searchParams, headers: req.headers, body: JSON.parse(text || '{}') as Record<string, unknown> });
      const answer = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname === '/sms') return answer(receiver.smsStatus, { code: receiver.smsStatus === 200 ? 'OK' : 'DOWN' });
      if (url.searchParams.get('access_token') !== options.robotToken && url.searchParams.get('key') !== options.robotToken)
        return answer(200, { errcode: 300001, errmsg: 'token is not exist' });
      if (url.pathname === '/dingtalk/send' && !dingTalkSignatureOk(url.searchParams, options.dingTalkSecret))
        return answer(200, { errcode: 310000, errmsg: 'sign not match' });
      return answer(200, { errcode: 0, errmsg: 'ok' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.stop = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** A channel (POST /api/channels body) that sends SMS through the receiver's /sms vendor. */
export const smsChannel = (receiver: HttpReceiver) => ({
  name: 'SMS vendor',
  serviceType: 'SMS',
  vendor: 'acme-sms',
  config: { url: `${receiver.base}/sms`, templateId: 'TPL_001', signName: 'ACME', accessKeyId: 'key-1', accessSecret: 'sms-secret' },
});

/** A channel (POST /api/channels body) that sends e-mail through the SMTP receiver, signing in as `user`. */
export const smtpChannel = (receiver: SmtpReceiver, user: string, password: string) => ({
  name: 'Mail relay',
  serviceType: 'EMAIL',
  vendor: 'smtp',
  config: { host: '127.0.0.1', port: String(receiver.port), security: 'none', username: user, password, from: 'iam@example.com' },
});

/** Waits until `check` answers something truthy (the outbox delivers within about a second). */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A webhook endpoint: keeps every post; answers a path the next status of `statuses[path]` (then 200). */
export interface WebhookReceiver {
  url: string;
  posts: { path: string; headers: IncomingHttpHeaders; body: string }[];
  statuses: Record<string, number[]>;
  server: Server;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { url: '', posts: [], statuses: {}, server: undefined as unknown as Server };
  receiver.server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      receiver.posts.push({ path: req.url ?? '', headers: req.headers, body });
      const status = receiver.statuses[req.url ?? '']?.shift() ?? 200;
      // A long answer: the log keeps its start only.
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : `down for maintenance ${'.'.repeat(5000)}`);
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  return receiver;
}

/** A receiver that takes each post and never answers (until stopped): `held` are the posts it holds;
 *  `abandoned()` counts those whose sender gave up (closed the connection: its timeout), so a test
 *  can tell "delivered while the held posts still hang" from "delivered once they timed out"
 *  without a deadline of its own. */
export interface Tarpit {
  url: string;
  held: ServerResponse[];
  abandoned(): number;
  stop(): Promise<void>;
}

export async function startTarpit(): Promise<Tarpit> {
  const held: ServerResponse[] = [];
  let abandoned = 0;
  let stopping = false;
  const tarpit = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    held.push(res);
    res.on('close', () => {
      if (!stopping) abandoned += 1;
    });
  });
  await new Promise<void>((resolve) => tarpit.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(tarpit.address() as AddressInfo).port}`,
    held,
    abandoned: () => abandoned,
    async stop() {
      stopping = true;
      for (const res of held) res.destroy();
      tarpit.closeAllConnections();
      await new Promise((resolve) => tarpit.close(resolve));
    },
  };
}

/** Waits for `check` (a delivery the tarpit's posts must not hold up), then asserts it came while
 *  every post `tarpit` holds still hung, not once their sender's timeout freed it: `failure` says
 *  what a late one means. No deadline of the test's own, so a loaded machine cannot fail it. */
export async function arrivesWhileHeld<T>(tarpit: Tarpit, check: () => T, what: string, failure: string): Promise<NonNullable<T>> {
  const value = await until(check, what, 60_000);
  assert.equal(tarpit.abandoned(), 0, `${what} came only after ${tarpit.abandoned()} of ${tarpit.held.length} held posts timed out: ${failure}`);
  return value;
}
