// Hostile images: dimensions read from the real header (a 12000×12000 PNG, a header claiming
// 2³¹×2³¹, a huge JPEG frame are refused), SVG reference chains (<use>, href, url(…) to other
// documents) and oversized trees neutralised, and every stored image field takes only our own
// upload ids: no paths (the "../../cas/logout" avatar that signed administrators out), no URLs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pngChunk } from '../e2e/images';
import { startServer, transform, type Client, type TestServer } from './harness';
import type { User } from '../../src/core/types';

type Fields = { url: string; fields: { field: string; rule: string }[] };

let server: TestServer;
let admin: Client;
before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A baseline JPEG frame header of width × height (no scan data: only the header is read). */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** An icon file: the directory (each entry's stated size, 0 meaning 256) and the embedded images. */
function ico(entries: { side: number; image: Buffer }[]): Buffer {
  const header = Buffer.from([0, 0, 1, 0, entries.length & 0xff, entries.length >> 8]);
  let offset = header.length + 16 * entries.length;
  const directory = entries.map(({ side, image }) => {
    const entry = Buffer.alloc(16);
    entry.set([side & 0xff, side & 0xff, 0, 0], 0);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(image.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += image.length;
    return entry;
  });
  return Buffer.concat([header, ...directory, ...entries.map((entry) => entry.image)]);
}

/** An icon's BMP entry: BITMAPINFOHEADER (its height counts the image and the AND mask), then the
 *  32-bit pixels and the mask; `pixels: false` keeps the header only. */
function iconBitmap(width: number, height: number, pixels = true): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  if (!pixels) return header;
  return Buffer.concat([header, Buffer.alloc(width * height * 4), Buffer.alloc(Math.ceil(width / 32) * 4 * height)]);
}

const u16 = (value: number) => [value & 0xff, value >> 8];

/** A GIF89a of a width × height logical screen (two-colour global table), looping (NETSCAPE
 *  extension), with one frame per rectangle, each with a graphic control extension and one
 *  data sub-block; `trailer: false` leaves the stream unfinished. */
function gif(width: number, height: number, frames: { left: number; top: number; width: number; height: number }[], trailer = true): Buffer {
  const bytes = [...Buffer.from('GIF89a', 'latin1'), ...u16(width), ...u16(height), 0x80, 0, 0, 0, 0, 0, 255, 255, 255];
  bytes.push(0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0', 'latin1'), 3, 1, 0, 0, 0);
  for (const frame of frames) {
    bytes.push(0x21, 0xf9, 4, 0, 10, 0, 0, 0);
    bytes.push(0x2c, ...u16(frame.left), ...u16(frame.top), ...u16(frame.width), ...u16(frame.height), 0);
    bytes.push(2, 2, 0x44, 0x01, 0);
  }
  if (trailer) bytes.push(0x3b);
  return Buffer.from(bytes);
}

async function upload(bytes: Buffer | string, purpose: string) {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), 'file.bin');
  return admin.request<Fields>('POST', `/api/file/upload?purpose=${purpose}`, form);
}

describe('uploads by decoded dimensions', () => {
  test('a 12000×12000 PNG, a header claiming 2³¹×2³¹ and a huge JPEG frame are refused; 4096×4096 is taken', async () => {
    for (const [what, bytes] of [
      ['12000×12000 PNG', png(12000, 12000)],
      ['2³¹×2³¹ PNG', png(2 ** 31, 2 ** 31)],
      ['12000×12000 JPEG', jpeg(12000, 12000)],
      ['4097×1 PNG', png(4097, 1)],
    ] as const) {
      for (const purpose of ['avatar', 'image']) {
        const answer = await upload(bytes, purpose);
        assert.equal(answer.status, 400, `${what} as ${purpose}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(answer.body.data.fields, [{ field: 'file', rule: 'upload.tooLarge' }], what);
        assert.equal(answer.body.message, 'The image must not be larger than 4096 × 4096 pixels');
      }
    }
    assert.equal((await upload(png(4096, 4096), 'avatar')).status, 200);
    assert.equal((await upload(jpeg(640, 480), 'avatar')).status, 200);
  });

  test('a PNG whose header is not a real IHDR chunk is refused', async () => {
    const forged = png(16, 16);
    forged.write('IHDX', 12, 'latin1');
    const answer = await upload(forged, 'avatar');
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data.fields, [{ field: 'file', rule: 'upload.wrongType' }]);
    assert.equal(answer.body.message, 'The image is damaged or its header is not valid');
  });

  test('an icon is judged by its embedded images, not its directory: a 10000×10000 PNG or BMP behind a 16×16 entry is refused', async () => {
    const tooLarge = [
      ['PNG', ico([{ side: 16, image: png(10000, 10000) }])],
      ['BMP', ico([{ side: 16, image: iconBitmap(10000, 10000, false) }])],
      [
        'second entry',
        ico([
          { side: 16, image: png(16, 16) },
          { side: 32, image: png(16000, 16000) },
        ]),
      ],
    ] as const;
    for (const [what, bytes] of tooLarge) {
      for (const purpose of ['favicon', 'image']) {
        const answer = await upload(bytes, purpose);
        assert.equal(answer.status, 400, `${what} as ${purpose}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(answer.body.data.fields, [{ field: 'file', rule: 'upload.tooLarge' }], `${what} as ${purpose}`);
      }
    }
    // An icon entry is at most 256×256, and its image must be the size its entry says.
    const inconsistent = [
      ['300×300 PNG', ico([{ side: 0, image: png(300, 300) }])],
      ['32×32 PNG in a 16×16 entry', ico([{ side: 16, image: png(32, 32) }])],
      ['BMP larger than its entry', ico([{ side: 16, image: iconBitmap(64, 64) }])],
      ['entry past the end', ico([{ side: 16, image: png(16, 16) }]).subarray(0, 40)],
    ] as const;
    for (const [what, bytes] of inconsistent) {
      for (const purpose of ['favicon', 'image']) {
        const answer = await upload(bytes, purpose);
        assert.equal(answer.status, 400, `${what} as ${purpose}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual(answer.body.data.fields, [{ field: 'file', rule: 'upload.wrongType' }], `${what} as ${purpose}`);
      }
    }
    const normal = ico([
      { side: 16, image: iconBitmap(16, 16) },
      { side: 32, image: png(32, 32) },
      { side: 0, image: png(256, 256) },
    ]);
    for (const purpose of ['favicon', 'image']) assert.equal((await upload(normal, purpose)).status, 200, `a normal icon as ${purpose}`);
  });

  test('a GIF is judged by every frame: a 16000×16000 frame on a 16×16 screen, a frame past the screen and an unfinished stream are refused', async () => {
    const big = gif(16, 16, [{ left: 0, top: 0, width: 16000, height: 16000 }]);
    const answer = await upload(big, 'avatar');
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data.fields, [{ field: 'file', rule: 'upload.tooLarge' }]);
    // Each ends in 0x3b, the trailer's byte, so that only walking the blocks finds it is no trailer.
    const unfinished = gif(16, 16, [{ left: 0, top: 0, width: 16, height: 16 }], false);
    const hostile = [
      [
        'frame past the screen',
        gif(16, 16, [
          { left: 0, top: 0, width: 16, height: 16 },
          { left: 8, top: 8, width: 16, height: 16 },
        ]),
      ],
      ['ends inside a comment extension', Buffer.concat([unfinished, Buffer.from([0x21, 0xfe, 1, 0x3b])])],
      ['ends inside a frame', Buffer.concat([unfinished, Buffer.from([0x2c, 0, 0, 0, 0, 16, 0, 16, 0, 0, 2, 4, 1, 2, 0x3b])])],
      ['unknown block', Buffer.concat([unfinished, Buffer.from([0x00, 0x3b])])],
    ] as const;
    for (const [what, bytes] of hostile) {
      const refused = await upload(bytes, 'avatar');
      assert.equal(refused.status, 400, `${what}: ${JSON.stringify(refused.body)}`);
      assert.deepEqual(refused.body.data.fields, [{ field: 'file', rule: 'upload.wrongType' }], what);
    }
    const animated = gif(16, 16, [
      { left: 0, top: 0, width: 16, height: 16 },
      { left: 4, top: 4, width: 8, height: 8 },
      { left: 15, top: 15, width: 1, height: 1 },
    ]);
    assert.equal((await upload(animated, 'avatar')).status, 200, 'a normal animated GIF');
  });
});

describe('SVG reference chains and size', () => {
  const served = async (url: string) => (await fetch(`${server.base}/api/file/get/${url}`)).text();

  test('nested <use> (the tab-freezing "billion laughs" of SVG) is removed', async () => {
    const levels = Array.from(
      { length: 10 },
      (_, level) => `<g id="l${level + 1}">${Array.from({ length: 10 }, () => `<use href="#l${level}"/><use xlink:href="#l${level}"/>`).join('')}</g>`,
    ).join('');
    const bomb = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><defs><rect id="l0" width="1" height="1"/>${levels}</defs><use href="#l10"/></svg>`;
    const answer = await upload(bomb, 'avatar');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const text = await served(answer.body.data.url);
    assert.doesNotMatch(text, /<use/i);
    assert.doesNotMatch(text, /href/i);
    assert.match(text, /<rect id="l0"/);
  });

  test('references are dropped: href on any element, url(…) anywhere (local ones too: svg-paint-bounds.test.ts)', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
<linearGradient id="a" href="https://evil.test/g.svg#x"><stop offset="0" stop-color="red"/></linearGradient>
<pattern id="p" xlink:href="#a"/><textPath href="#a">t</textPath>
<rect width="5" height="5" fill="url(https://evil.test/x.svg#p)" mask="url( 'http://evil.test/m#a' )"/>
<rect width="5" height="5" fill="url(#a)" clip-path="url(#p)"/></svg>`;
    const answer = await upload(svg, 'image');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const text = await served(answer.body.data.url);
    assert.doesNotMatch(text, /evil\.test|href|textPath|url\(/i);
    assert.match(text, /<rect width="5" height="5"/);
  });

  test('too many elements are refused, too deep a tree is cut', async () => {
    const many = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(5000)}</svg>`;
    const refused = await upload(many, 'image');
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.deepEqual(refused.body.data.fields, [{ field: 'file', rule: 'upload.tooLarge' }]);
    assert.equal(refused.body.message, 'The SVG image has too many elements');
    const deep = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(200)}<rect id="deepest"/>${'</g>'.repeat(200)}</svg>`;
    const cut = await upload(deep, 'image');
    assert.equal(cut.status, 200, JSON.stringify(cut.body));
    const text = await served(cut.body.data.url);
    assert.doesNotMatch(text, /deepest/);
    assert.ok((text.match(/<g>/g) ?? []).length <= 32, 'nesting is bounded');
  });
});

describe('stored image fields take only our own upload ids', () => {
  const hostile = [
    '../../cas/logout',
    '/api/cas/logout',
    '/api/file/get/../../cas/logout',
    'https://evil.test/a.png',
    'javascript:alert(1)',
    'abc.png',
    `${'a'.repeat(64)}.png/../x`,
    `${'0'.repeat(64)}.exe`,
  ];
  let fileId: string;
  let userId: string;
  let member: Client;

  before(async () => {
    fileId = (await upload(png(8, 8), 'avatar')).body.data.url;
    const created = await admin.post<User>('/api/user', { username: 'pictured', realName: 'Pic_Tured', password: transform('Secret123') });
    userId = created.body.data.id;
    member = server.client();
    await member.login('pictured', 'Secret123');
  });

  const refusedOn = (answer: { status: number; body: { data: unknown } }, field: string, what: string) => {
    assert.equal(answer.status, 400, `${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
    assert.ok(
      (answer.body.data as Fields).fields.some((entry) => entry.field === field && entry.rule === 'rule.fileName'),
      `${what}: ${JSON.stringify(answer.body.data)}`,
    );
  };

  test('avatar: profile, basic info, administrator create and update', async () => {
    for (const value of hostile) {
      refusedOn(await member.put('/api/user/profile', { realName: 'Pic_Tured', avatar: value }), 'avatar', `profile ${value}`);
      refusedOn(await member.put(`/api/user/${userId}/basic_info`, { realName: 'Pic_Tured', avatar: value }), 'avatar', `basic_info ${value}`);
      refusedOn(await admin.put(`/api/user/${userId}`, { avatar: value }), 'avatar', `update ${value}`);
      refusedOn(
        await admin.post('/api/user', { username: 'pictured2', realName: 'Pic_Tured', password: transform('Secret123'), avatar: value }),
        'avatar',
        `create ${value}`,
      );
    }
    const saved = await member.put<{ avatar: string }>('/api/user/profile', { realName: 'Pic_Tured', avatar: `/api/file/get/${fileId}` });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.data.avatar, fileId, 'the display URL is kept as the id');
    assert.equal((await member.put('/api/user/profile', { realName: 'Pic_Tured', avatar: '' })).status, 200, 'empty removes it');
  });

  test('branding images, the sign-in background picture and the identity provider icon', async () => {
    const system = ['appLogo', 'appBrandImage', 'appBrandImageLight', 'favicon', 'loginLogoPath'];
    for (const field of system) {
      for (const value of hostile) {
        const current = await admin.get<{ version: number }>('/api/config');
        refusedOn(await admin.put('/api/config', { system: { [field]: value }, version: current.body.data.version }), `system.${field}`, `${field} ${value}`);
      }
    }
    const current = await admin.get<{ version: number }>('/api/config');
    const saved = await admin.put<{ value: { system: Record<string, string> } }>('/api/config', {
      system: Object.fromEntries(system.map((field) => [field, fileId])),
      version: current.body.data.version,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.data.value.system.appLogo, fileId);

    for (const value of hostile) {
      const login = await admin.get<{ version: number }>('/api/settings/login');
      refusedOn(
        await admin.put('/api/settings/login', { backgroundType: 'PictureBackground', background: value, version: login.body.data.version }),
        'background',
        `background ${value}`,
      );
    }
    const login = await admin.get<{ version: number }>('/api/settings/login');
    assert.equal(
      (await admin.put('/api/settings/login', { backgroundType: 'PictureBackground', background: fileId, version: login.body.data.version })).status,
      200,
    );
    const colour = await admin.get<{ version: number }>('/api/settings/login');
    assert.equal(
      (await admin.put('/api/settings/login', { backgroundType: 'SolidColorBackground', background: '#336699', version: colour.body.data.version })).status,
      200,
      'a colour is not an image',
    );

    for (const value of hostile) {
      refusedOn(
        await admin.post('/api/idps', { code: 'corp', name: 'Corp SSO', type: 'OIDC', icon: value, config: { issuer: 'https://sso.example.com' } }),
        'icon',
        `idp ${value}`,
      );
    }
  });
});
