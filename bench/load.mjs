// Load against the bench servers on 127.0.0.1: sign-in, throughput (autocannon), latency of the
// paged user search, and bursts of parallel sign-ins. Figures that are compared (SQLite against
// PostgreSQL, a call against the baseline) are measured interleaved: run 1 of every target, then
// run 2 of every target …, so that the other work on a shared machine weighs on all of them alike.
// Every loop is bounded by a count, and autocannon by a duration.
import autocannon from 'autocannon';
import { transformPassword } from '../src/core/password.ts';
import { median, percentile } from './stats.mjs';

const SESSION_COOKIE = 'iam_session';

async function envelope(response) {
  const body = await response.json();
  if (!response.ok || body.code !== 0) throw new Error(`${response.url}: ${response.status} ${body.message ?? ''}`);
  return body.data;
}

function postLogin(base, username, transformed) {
  return fetch(`${base}/api/authc/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ username, password: transformed }),
  });
}

/** Signs in as a browser would (password transformed by the core); answers the session cookie. */
export async function signIn(base, username, password) {
  const response = await postLogin(base, username, await transformPassword(password));
  const data = await envelope(response);
  if (!data.loginSuccess) throw new Error(`sign-in of ${username} refused: ${data.message}`);
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  if (!line) throw new Error('sign-in answered no session cookie');
  const value = line.slice(SESSION_COOKIE.length + 1).split(';')[0];
  return { name: SESSION_COOKIE, value, header: `${SESSION_COOKIE}=${value}` };
}

/** `pages` pages of 100 users, newest first, as an administrator sees them. */
export async function sampleUsers(base, cookie, pages) {
  const users = [];
  for (let page = 1; page <= pages; page++) {
    const response = await fetch(`${base}/api/user?page=${page}&size=100`, { headers: { cookie: cookie.header } });
    users.push(...(await envelope(response)).list);
  }
  return users;
}

/**
 * Throughput of each target ({ url, cookie, cpuMicros }): a warm-up each, then `runs` rounds of one
 * timed run per target; per target the medians of req/s, p99 (ms) and the server's CPU time per
 * request (µs; what the request costs the server, much less sensitive to other work on the machine
 * than req/s).
 */
export async function throughput(targets, { connections, warmupSeconds, runs, seconds }) {
  const run = async ({ url, cookie, cpuMicros }, duration) => {
    const cpuBefore = await cpuMicros();
    const result = await autocannon({ url, connections, duration, headers: { cookie: cookie.header } });
    const cpu = (await cpuMicros()) - cpuBefore;
    if (result.non2xx || result.errors || result.timeouts) {
      throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
    }
    return { requestsPerSecond: result.requests.average, p99: result.latency.p99, total: result.requests.total, cpuPerRequest: cpu / result.requests.total };
  };
  for (const target of targets) await run(target, warmupSeconds);
  const results = targets.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (const [index, target] of targets.entries()) results[index].push(await run(target, seconds));
  }
  return results.map((runsOfTarget) => ({
    requestsPerSecond: median(runsOfTarget.map((result) => result.requestsPerSecond)),
    p99: median(runsOfTarget.map((result) => result.p99)),
    cpuPerRequest: median(runsOfTarget.map((result) => result.cpuPerRequest)),
    runs: runsOfTarget,
  }));
}

/** Time to the last byte of one list request; fails on anything but a list envelope. */
async function timedList(url, cookie) {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie: cookie.header } });
  const text = await response.text();
  const elapsed = performance.now() - started;
  const body = JSON.parse(text);
  if (!response.ok || body.code !== 0 || !Array.isArray(body.data?.list)) throw new Error(`${url}: ${response.status} ${body.message ?? ''}`);
  return { elapsed, found: body.data.list.length > 0 };
}

/**
 * Latency of the same list requests on each target ({ base, cookie }), one request at a time,
 * each path on every target in turn; the first `warmup` paths are not counted, and no path starts
 * after `seconds`. Per target: p50, p95 and how many requests they cover.
 */
export async function listLatency(targets, paths, { warmup, seconds }) {
  const deadline = performance.now() + seconds * 1000;
  const timings = targets.map(() => []);
  const found = targets.map(() => 0);
  for (const [index, path] of paths.entries()) {
    if (performance.now() > deadline) break;
    for (const [at, { base, cookie }] of targets.entries()) {
      const { elapsed, found: hit } = await timedList(base + path, cookie);
      if (index < warmup) continue;
      timings[at].push(elapsed);
      if (hit) found[at]++;
    }
  }
  return timings.map((samples, at) => ({ p50: percentile(samples, 50), p95: percentile(samples, 95), requests: samples.length, withResults: found[at] }));
}

/** All `usernames` sign in at once with the right password: sign-ins per second over the burst. */
export async function loginBurst(base, usernames, password) {
  const transformed = await transformPassword(password);
  const started = performance.now();
  const answers = await Promise.all(
    usernames.map(async (username) => {
      const response = await postLogin(base, username, transformed);
      return (await envelope(response)).loginSuccess === true;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const refused = answers.filter((ok) => !ok).length;
  if (refused) throw new Error(`${refused} of ${usernames.length} sign-ins in the burst were refused`);
  return { signIns: usernames.length, seconds, perSecond: usernames.length / seconds };
}

/**
 * Mixed load for `seconds` (a deadline; no loop outlives it): `workers` loops, each signing in as
 * the next of `usernames` (the right password), then a few rounds of that session's check and a
 * page of the user list as the administrator (`adminCookie`), then signing out. Nothing throws:
 * every answer is counted, and a refused call (not 2xx, or an envelope code other than 0) or a
 * network error counts as an error, a status ≥ 500 also as a server error. `sample()`, if given,
 * is called once a second (e.g. to read memory).
 */
export async function soak(base, { adminCookie, usernames, password, seconds, workers = 4, readsPerSignIn = 5, sample }) {
  const transformed = await transformPassword(password);
  const deadline = performance.now() + seconds * 1000;
  const tally = { requests: 0, errors: 0, serverErrors: 0, signIns: 0, sessionChecks: 0, lists: 0, signOuts: 0, firstError: null };
  const latencies = [];
  async function call(kind, url, init = {}) {
    const started = performance.now();
    tally.requests += 1;
    try {
      const response = await fetch(url, init);
      const body = await response.json();
      latencies.push(performance.now() - started);
      if (response.status >= 500) tally.serverErrors += 1;
      if (!response.ok || body.code !== 0) {
        tally.errors += 1;
        tally.firstError ??= `${kind}: ${response.status} ${body.message ?? ''}`;
        return undefined;
      }
      tally[kind] += 1;
      return response;
    } catch (error) {
      tally.errors += 1;
      tally.firstError ??= `${kind}: ${error.message}`;
      return undefined;
    }
  }
  let next = 0;
  async function worker() {
    while (performance.now() < deadline) {
      const username = usernames[next++ % usernames.length];
      const signedIn = await call('signIns', `${base}/api/authc/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ username, password: transformed }),
      });
      const cookie = signedIn?.headers
        .getSetCookie()
        .find((line) => line.startsWith(`${SESSION_COOKIE}=`))
        ?.split(';')[0];
      for (let round = 0; round < readsPerSignIn && performance.now() < deadline; round++) {
        if (cookie) await call('sessionChecks', `${base}/api/cas/session`, { headers: { cookie } });
        await call('lists', `${base}/api/user?page=${1 + ((next * readsPerSignIn + round) % 50)}&size=20`, { headers: { cookie: adminCookie.header } });
      }
      if (cookie) await call('signOuts', `${base}/api/cas/logout`, { headers: { cookie } });
    }
  }
  const sampler = sample ? setInterval(sample, 1000) : undefined;
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    clearInterval(sampler);
  }
  const elapsed = (performance.now() - started) / 1000;
  return { ...tally, seconds: elapsed, perSecond: tally.requests / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
