// Load against the bench server on 127.0.0.1: sign-in, throughput of one call (autocannon),
// latency of the paged user search, and bursts of parallel sign-ins. Every loop is bounded by a
// count, and autocannon by a duration.
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

/** GET `url` with the session cookie: a warm-up, then `runs` timed runs; medians of req/s and p99 (ms). */
export async function throughput(url, cookie, { connections, warmupSeconds, runs, seconds }) {
  const options = { url, connections, headers: { cookie: cookie.header } };
  await autocannon({ ...options, duration: warmupSeconds });
  const results = [];
  for (let run = 0; run < runs; run++) {
    const result = await autocannon({ ...options, duration: seconds });
    if (result.non2xx || result.errors || result.timeouts) {
      throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
    }
    results.push({ requestsPerSecond: result.requests.average, p99: result.latency.p99, total: result.requests.total });
  }
  return {
    requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
    p99: median(results.map((result) => result.p99)),
    runs: results,
  };
}

/** Latency of each list request, one after another (after `warmup` unmeasured ones): p50, p95. */
export async function listLatency(base, cookie, paths, warmup) {
  const timings = [];
  let matches = 0;
  for (const [index, path] of paths.entries()) {
    const started = performance.now();
    const response = await fetch(base + path, { headers: { cookie: cookie.header } });
    const text = await response.text();
    const elapsed = performance.now() - started;
    const body = JSON.parse(text);
    if (!response.ok || body.code !== 0 || !Array.isArray(body.data?.list)) throw new Error(`${path}: ${response.status} ${body.message ?? ''}`);
    if (index < warmup) continue;
    timings.push(elapsed);
    if (body.data.list.length) matches++;
  }
  return { p50: percentile(timings, 50), p95: percentile(timings, 95), requests: timings.length, withResults: matches };
}

/** All `usernames` sign in at once with the right password: sign-ins per second over the burst. */
export async function loginBurst(base, usernames, password) {
  const transformed = await transformPassword(password);
  const started = performance.now();
  const answers = await Promise.all(usernames.map(async (username) => {
    const response = await postLogin(base, username, transformed);
    return (await envelope(response)).loginSuccess === true;
  }));
  const seconds = (performance.now() - started) / 1000;
  const refused = answers.filter((ok) => !ok).length;
  if (refused) throw new Error(`${refused} of ${usernames.length} sign-ins in the burst were refused`);
  return { signIns: usernames.length, seconds, perSecond: usernames.length / seconds };
}
