// GET /metrics: Prometheus's text format with requests by route pattern, latency, sign-ins by
// outcome (counted exactly under a parallel burst), locked names, active sessions, the KDF queue
// and event-loop lag; and who may read it (loopback by default outside production, nobody by
// default in production, the configured addresses or bearer token otherwise; a forged
// X-Forwarded-For opens nothing).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../server/config';
import { docBlock } from '../doc-blocks';
import { ADMIN, startServer, type TestServer } from './harness';

/** The value of one series (`name{labels}`) in a Prometheus text answer; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function scrape(base: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${base}/metrics`, { headers });
  return { status: answer.status, type: answer.headers.get('content-type') ?? '', text: await answer.text() };
}

describe('metrics content', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
    const admin = await server.admin();
    const settings = await admin.get<{ version: number }>('/api/settings/login');
    const saved = await admin.put('/api/settings/login', { captchaAfterFailures: 0, maxFailures: 5, lockMinutes: 15, version: settings.body.data.version });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });
  after(async () => {
    await server?.stop();
  });

  test('requests are counted by route pattern and status (never the raw URL), with a latency histogram', async () => {
    const admin = await server.admin();
    const id = 'no-such-user-4f1c';
    assert.equal((await admin.get(`/api/user/${id}`)).status, 404);
    const { status, type, text } = await scrape(server.base);
    assert.equal(status, 200);
    assert.match(type, /^text\/plain; version=0\.0\.4/);
    assert.ok(sample(text, 'iam_http_requests_total{method="GET",route="/api/user/:id",status="404"}') >= 1, text.slice(0, 2000));
    assert.ok(!text.includes(id), 'no raw URL in any label');
    assert.ok(sample(text, 'iam_http_request_duration_seconds_count{method="GET",route="/api/user/:id"}') >= 1);
    assert.match(text, /iam_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/user\/:id"\}/);
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'iam_kdf_running',
      'iam_kdf_queued',
      'iam_active_sessions',
      'iam_locked_names',
    ]) {
      assert.match(text, new RegExp(`^${name} \\d`, 'm'), name);
    }
  });

  test('sign-ins are counted by outcome, exactly, under a parallel burst; lockouts and active sessions move', async () => {
    const before = (await scrape(server.base)).text;
    const name = `metrics-${Date.now()}`;
    // Eight wrong passwords at once on one name: five places in its failure count (the fifth locks
    // it), three refused as locked.
    const burst = await Promise.all(Array.from({ length: 8 }, () => server.client().login(name, 'Wrong-password-1')));
    assert.deepEqual(burst.map((answer) => answer.status).sort(), [401, 401, 401, 401, 429, 429, 429, 429]);
    await server.admin();
    await server.admin();
    const afterwards = (await scrape(server.base)).text;
    const moved = (series: string) => sample(afterwards, series) - sample(before, series);
    assert.equal(moved('iam_sign_ins_total{outcome="success"}'), 2);
    assert.equal(moved('iam_sign_ins_total{outcome="failure"}'), 4);
    assert.equal(moved('iam_sign_ins_total{outcome="locked"}'), 4);
    assert.equal(moved('iam_locked_names'), 1);
    assert.equal(moved('iam_active_sessions'), 2);
  });
});

describe('who may read the metrics', () => {
  const servers: TestServer[] = [];
  const start = async (options: Parameters<typeof startServer>[0]) => {
    const server = await startServer(options);
    servers.push(server);
    return server;
  };
  after(async () => {
    for (const server of servers) await server.stop();
  });

  test('in production nobody may by default, not even this machine; outside production this machine only', () => {
    assert.deepEqual(resolveConfig({ publicUrl: 'https://iam.example.com' }, { NODE_ENV: 'production' }).metrics, { token: undefined, allow: [] });
    assert.deepEqual(resolveConfig({}, {}).metrics, { token: undefined, allow: ['loopback'] });
    assert.throws(() => resolveConfig({}, { IAM_METRICS_TOKEN: 'short' }), /at least 16 characters/);
    assert.throws(() => resolveConfig({}, { IAM_METRICS_ALLOW: 'everyone' }), /IAM_METRICS_ALLOW/);
  });

  test('with no address allowed, loopback is refused with the envelope', async () => {
    const server = await start({ metrics: { allow: [] } });
    const answer = await scrape(server.base);
    assert.equal(answer.status, 403);
    assert.deepEqual(JSON.parse(answer.text), { code: 403, message: 'Metrics are not available to this client', data: null });
  });

  test('a forged X-Forwarded-For naming an allowed address opens nothing, with or without a (different) trusted proxy', async () => {
    for (const trustProxy of [[], ['10.0.0.1']]) {
      const server = await start({ metrics: { allow: ['10.9.8.7', '192.168.0.0/16'] }, trustProxy });
      for (const forged of ['10.9.8.7', '192.168.1.1', '10.9.8.7, 127.0.0.1']) {
        assert.equal((await scrape(server.base, { 'x-forwarded-for': forged })).status, 403, `${forged} (trusting ${trustProxy.join(',') || 'no proxy'})`);
      }
    }
  });

  test('the configured bearer token opens it; a wrong or missing one does not', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const server = await start({ metrics: { allow: [], token } });
    assert.equal((await scrape(server.base)).status, 403);
    assert.equal((await scrape(server.base, { authorization: `Bearer ${token}x` })).status, 403);
    assert.equal((await scrape(server.base, { authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}` })).status, 403);
    const opened = await scrape(server.base, { authorization: `Bearer ${token}` });
    assert.equal(opened.status, 200);
    assert.match(opened.text, /iam_http_requests_total/);
  });

  test("docs/deployment.md's Prometheus job sends the token as that bearer token, to /metrics", () => {
    const job = docBlock('docs/deployment.md', 'yaml', 'scrape_configs');
    // Prometheus' `authorization` is of type Bearer unless it says otherwise, and it scrapes /metrics unless told another path.
    assert.match(job, /authorization: \{ credentials_file: \S+ \}/);
    assert.doesNotMatch(job, /\btype:|metrics_path/);
  });

  test("an allowed address (here loopback, the socket's peer) reads it", async () => {
    const server = await start({ metrics: { allow: ['127.0.0.1'] } });
    assert.equal((await scrape(server.base)).status, 200);
  });
});
