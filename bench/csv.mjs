// The user list's CSV export and import on a bench server over a seeded database: the export of
// every user (GET /api/user/export, streamed; the bytes are counted and dropped here) and the
// import of IMPORT_ROWS new people (upload, then the job polled until done). Each runs on a server
// process of its own, started for it, so that its peak resident memory is that run's (with the
// start's). Bounded: one request each, a deadline for the job.
import { signIn } from './load.mjs';
import { startBenchServer } from './server-process.mjs';

const MiB = 2 ** 20;
const POLL_MS = 200;
const JOB_DEADLINE_MS = 5 * 60_000;

async function onFreshServer(options, work) {
  const server = await startBenchServer(options);
  try {
    const admin = await signIn(server.base, 'admin', options.adminPassword);
    const rest = await server.memory();
    const started = performance.now();
    const result = await work(server.base, admin);
    const ms = performance.now() - started;
    const { peakRss } = await server.memory();
    return { ...result, ms, restMiB: rest.rss / MiB, peakMiB: peakRss / MiB };
  } finally {
    await server.stop();
  }
}

async function exportAll(base, admin) {
  const response = await fetch(`${base}/api/user/export?sort=createdAt&order=desc`, { headers: { cookie: admin.header } });
  if (!response.ok) throw new Error(`export: HTTP ${response.status}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return { bytes, rows: lines - 1 };
}

function importFile(rows) {
  const lines = Array.from(
    { length: rows },
    (_, index) => `bench-import-${index},Bench_Person,bench-import-${index}@example.com,,Imported by the bench,,enabled`,
  );
  return `username,realName,email,mobilePhone,description,tenantId,availabilityStatus\n${lines.join('\n')}\n`;
}

async function importRows(base, admin, rows) {
  const form = new FormData();
  form.append('file', new Blob([importFile(rows)], { type: 'text/csv' }), 'bench.csv');
  const headers = { cookie: admin.header, origin: base };
  const started = await (await fetch(`${base}/api/user/import?mode=apply`, { method: 'POST', headers, body: form })).json();
  if (started.code !== 0) throw new Error(`import: ${started.message}`);
  const deadline = Date.now() + JOB_DEADLINE_MS;
  for (;;) {
    const job = (await (await fetch(`${base}/api/user/import/${started.data.id}`, { headers })).json()).data;
    if (job.status !== 'running') {
      if (job.status !== 'done' || job.created !== rows) throw new Error(`import ended ${job.status}: ${job.created} created, ${job.failed} refused`);
      return { created: job.created };
    }
    if (Date.now() > deadline) throw new Error('the import did not finish within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Export (first: the database as seeded) then import, each on its own fresh server process. */
export async function measureCsv(options, importCount) {
  const exported = await onFreshServer(options, exportAll);
  const imported = await onFreshServer(options, (base, admin) => importRows(base, admin, importCount));
  return { export: exported, import: imported };
}
