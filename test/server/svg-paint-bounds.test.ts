// An SVG avatar or logo costs a viewer a bounded paint (server/files/svg.ts): every way a few
// kilobytes make a renderer do unbounded work by reference — 12 nested <pattern>s filling each other
// (the 5.6 KB file that froze the edit dialog), gradients, filters, masks, clip paths, markers,
// <use>, <symbol>, <image>, references in style or through CSS escapes, dash patterns — leaves
// nothing that refers to anything, for every upload purpose; the shapes themselves stay. An SVG
// stored before is cleaned by the migration (0035_svg_paint_bounds), in place.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startServer, type Client, type TestServer } from './harness';
import { migrate } from '../../server/db/migrations';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const SVG = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';

/** 12 patterns, each tiled with the one before it: the paint multiplies at every level. */
function nestedPatterns(levels = 12): string {
  const patterns = Array.from(
    { length: levels },
    (_, level) =>
      `<pattern id="p${level + 1}" width="0.1" height="0.1" patternUnits="objectBoundingBox">` +
      `<rect width="100" height="100" fill="url(#p${level})"/><circle r="3" fill="url(#p${level})" stroke="url(#p${level})"/></pattern>`,
  ).join('');
  return `<svg ${SVG} viewBox="0 0 100 100"><defs><pattern id="p0" width="1" height="1"><rect width="1" height="1" fill="red"/></pattern>${patterns}</defs><rect id="keep" width="100" height="100" fill="url(#p${levels})"/></svg>`;
}

const VARIANTS: Record<string, string> = {
  'nested patterns': nestedPatterns(),
  'gradient chain': `<svg ${SVG}><linearGradient id="g1"><stop offset="0" stop-color="red"/></linearGradient><linearGradient id="g2" href="#g1"/><rect id="keep" width="9" height="9" fill="url(#g2)"/></svg>`,
  filters: `<svg ${SVG}><filter id="f"><feGaussianBlur stdDeviation="999"/><feTurbulence baseFrequency="9" numOctaves="999"/></filter><rect id="keep" width="9" height="9" filter="url(#f)"/></svg>`,
  masks: `<svg ${SVG}><mask id="m"><rect width="9" height="9" mask="url(#m)"/></mask><rect id="keep" width="9" height="9" mask="url(#m)"/></svg>`,
  'clip paths': `<svg ${SVG}><clipPath id="c"><rect width="9" height="9" clip-path="url(#c)"/></clipPath><rect id="keep" width="9" height="9" clip-path="url(#c)"/></svg>`,
  markers: `<svg ${SVG}><marker id="k"><path d="M0 0L9 9" marker-start="url(#k)"/></marker><path id="keep" d="M0 0L9 9" marker-mid="url(#k)"/></svg>`,
  'use and symbol': `<svg ${SVG}><symbol id="s"><rect width="1" height="1"/></symbol><use href="#s"/><use xlink:href="#s"/><rect id="keep" width="1" height="1"/></svg>`,
  images: `<svg ${SVG}><image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/><feImage href="#keep"/><rect id="keep" width="1" height="1"/></svg>`,
  'style and escapes': `<svg ${SVG}><style>rect{fill:url(#p)}</style><rect id="keep" width="1" height="1" style="fill:url(#p)" fill="\\75 rl(#p)" stroke="URL( '#p' )"/></svg>`,
  'dash patterns': `<svg ${SVG}><path id="keep" d="M0 0L100000 100000" stroke="red" stroke-dasharray="0.0001" stroke-dashoffset="1"/></svg>`,
};

/** What the stored file holds after an upload for `purpose`. */
async function uploaded(svg: string, purpose: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([svg]), 'file.svg');
  const answer = await admin.request<{ url: string }>('POST', `/api/file/upload?purpose=${purpose}`, form);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (await fetch(`${server.base}/api/file/get/${answer.body.data.url}`)).text();
}

/** Nothing in `text` that makes the renderer paint something by reference. */
function assertBounded(text: string, what: string): void {
  assert.doesNotMatch(text, /url\s*\(|\\/i, `${what}: a reference is left`);
  assert.doesNotMatch(text, /<(pattern|linearGradient|radialGradient|filter|fe\w+|mask|clipPath|marker|use|symbol|image|style|defs)\b/i, `${what}: ${text}`);
  assert.doesNotMatch(text, /href|style=|dasharray|dashoffset/i, `${what}: ${text}`);
  assert.match(text, /id="keep"/, `${what}: the shape itself stays`);
}

test('the 12-nested-pattern bomb (several KB) and every other reference variant are reduced to plain shapes, for every purpose', async () => {
  assert.ok(nestedPatterns().length > 1500, 'the bomb is several kilobytes');
  for (const [what, svg] of Object.entries(VARIANTS)) {
    for (const purpose of ['avatar', 'image', 'icon']) assertBounded(await uploaded(svg, purpose), `${what} as ${purpose}`);
  }
});

test('an SVG stored before the allowlist is cleaned in place by the migration, its id kept', async () => {
  const db = server.app.ctx.db;
  const bomb = Buffer.from(nestedPatterns(), 'utf8');
  const id = `${'b'.repeat(64)}.svg`;
  await db
    .insertInto('files')
    .values({ id, kind: 'svg', mime: 'image/svg+xml', size: bomb.length, data: bomb, createdBy: null, createdAt: server.clock.now() })
    .execute();
  await sql`delete from kysely_migration where name = '0035_svg_paint_bounds'`.execute(db);
  await migrate(db as never, server.app.ctx.engine);
  const served = await fetch(`${server.base}/api/file/get/${id}`);
  assert.equal(served.status, 200);
  assertBounded(await served.text(), 'stored bomb');
  const row = await db.selectFrom('files').select('size').where('id', '=', id).executeTakeFirstOrThrow();
  assert.ok(Number(row.size) < bomb.length);
});
