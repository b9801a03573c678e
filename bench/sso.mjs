// Single sign-on under load, on a bench server: refresh grants/s (each worker rotates its own refresh
// token chain, as an app's sessions would), introspections/s and client_credentials grants/s (both
// through autocannon). The app is registered and people's tokens obtained as any app would, through
// the relying party of the server tests (test/server/oidc-rp.ts: oauth4webapi). Bounded: fixed
// durations, 127.0.0.1 only.
import http from 'node:http';
import autocannon from 'autocannon';
import { Client } from '../test/server/harness.ts';
import { RelyingParty } from '../test/server/oidc-rp.ts';
import { median } from './stats.mjs';

const basic = (id, secret) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** Registers the bench app as an administrator would, with machine access and a privilege for its
 *  machine scope; answers the relying party and its Authorization header. */
export async function benchApp(base, adminCookie) {
  const admin = new Client(base, base);
  admin.cookies.set(adminCookie.name, adminCookie.value);
  const app = await RelyingParty.register({ base }, admin, `BenchSso${Date.now() % 100000}`);
  await admin.post(`/api/apps/${app.appId}/privileges`, { name: 'Bench reports', key: 'reports' });
  await admin.put(`/api/apps/${app.appId}/oidc-client`, { clientCredentials: true });
  return { admin, app, authorization: basic(app.appId, app.secret) };
}

/** `count` refresh token chains of the administrator (offline_access with prompt=consent). */
export async function refreshTokens(admin, app, count) {
  const tokens = [];
  for (let i = 0; i < count; i++) tokens.push((await app.signIn(admin, 'openid offline_access', { prompt: 'consent' })).refresh_token);
  return tokens;
}

/**
 * POSTs a form on a kept-alive connection; answers the status and the JSON body. node:http rather
 * than fetch: on this machine fetch cost the load generator three to four times the CPU per request
 * (about 1.8–2.4 ms against 0.6 ms at load 10–12), CPU taken from the server on two cores.
 */
function postForm(url, agent, headers, form) {
  const body = form.toString();
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** `workers` loops, each rotating its own refresh token for `seconds`: grants/s, failures, and
 *  each chain's last refresh token (`chains`), which the next run may go on rotating. */
export async function refreshLoad({ tokenUrl, authorization }, chains, seconds) {
  const deadline = performance.now() + seconds * 1000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: chains.length });
  const latencies = [];
  let failures = 0;
  const started = performance.now();
  const last = [...chains];
  await Promise.all(
    chains.map(async (first, chain) => {
      let token = first;
      while (performance.now() < deadline) {
        const at = performance.now();
        const response = await postForm(tokenUrl, agent, { authorization }, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }));
        const { body } = response;
        latencies.push(performance.now() - at);
        if (response.status !== 200 || !body.refresh_token) {
          failures++;
          return;
        }
        token = last[chain] = body.refresh_token;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    requests: latencies.length,
    failures,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    chains: last,
  };
}

async function cannon({ url, authorization, body }, { connections, seconds }) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { perSecond: result.requests.average, requests: result.requests.total, p99: result.latency.p99 };
}

/**
 * Measures one bench server ({ base, cpuMicros }); answers per case the median of `runs` runs of
 * `seconds` s each, and the server's CPU time per request.
 */
export async function measureSso(server, adminCookie, { connections, runs, seconds, refreshChains }) {
  const { admin, app, authorization } = await benchApp(server.base, adminCookie);
  const chains = await refreshTokens(admin, app, refreshChains * (runs + 1));
  const tokenUrl = app.as.token_endpoint;
  const { access_token: accessToken } = await app.signIn(admin, 'openid');
  const introspection = {
    url: app.as.introspection_endpoint,
    authorization,
    body: new URLSearchParams({ token: accessToken, token_type_hint: 'access_token' }).toString(),
  };
  const machine = { url: tokenUrl, authorization, body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'reports' }).toString() };

  const cases = { refresh: [], introspection: [], clientCredentials: [] };
  const timed = async (key, work) => {
    const before = await server.cpuMicros();
    const result = await work();
    result.cpuPerRequest = ((await server.cpuMicros()) - before) / Math.max(1, result.requests);
    cases[key].push(result);
  };
  // A warm-up of each, then the timed runs, interleaved.
  await refreshLoad({ tokenUrl, authorization }, chains.splice(0, refreshChains), 1);
  await cannon(introspection, { connections, seconds: 1 });
  await cannon(machine, { connections, seconds: 1 });
  for (let run = 0; run < runs; run++) {
    await timed('refresh', () => refreshLoad({ tokenUrl, authorization }, chains.splice(0, refreshChains), seconds));
    await timed('introspection', () => cannon(introspection, { connections, seconds }));
    await timed('clientCredentials', () => cannon(machine, { connections, seconds }));
  }
  return Object.fromEntries(
    Object.entries(cases).map(([key, results]) => [
      key,
      {
        perSecond: median(results.map((result) => result.perSecond)),
        p99: median(results.map((result) => result.p99)),
        cpuPerRequest: median(results.map((result) => result.cpuPerRequest)),
        failures: results.reduce((sum, result) => sum + (result.failures ?? 0), 0),
        runs: results,
      },
    ]),
  );
}
