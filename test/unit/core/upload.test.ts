// image checks by content, with real PNG, ICO, SVG, GIF and JPEG bytes made here.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, deflateSync } from 'node:zlib';
import { acceptOf, checkUpload, detectImageKind, imageDimensions, type UploadPurpose } from '../../../src/core/upload';
import { setLocale, t } from '../../../src/core/i18n';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid RGBA PNG of width × height (all pixels opaque red). */
function png(width: number, height: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 4, Buffer.from([255, 0, 0, 255]))]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', pixels),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** An ICO file holding PNG images (the modern layout), one directory entry per image. */
function ico(...images: [width: number, height: number][]): Uint8Array {
  const payloads = images.map(([width, height]) => png(width, height));
  const directory = Buffer.alloc(6 + 16 * images.length);
  directory.writeUInt16LE(0, 0);
  directory.writeUInt16LE(1, 2);
  directory.writeUInt16LE(images.length, 4);
  let offset = directory.length;
  images.forEach(([width, height], i) => {
    const entry = 6 + 16 * i;
    directory[entry] = width >= 256 ? 0 : width;
    directory[entry + 1] = height >= 256 ? 0 : height;
    directory.writeUInt16LE(1, entry + 4);
    directory.writeUInt16LE(32, entry + 6);
    directory.writeUInt32LE(payloads[i]?.length ?? 0, entry + 8);
    directory.writeUInt32LE(offset, entry + 12);
    offset += payloads[i]?.length ?? 0;
  });
  return new Uint8Array(Buffer.concat([directory, ...payloads]));
}

const svg = (attributes: string) =>
  new TextEncoder().encode(
    `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg" ${attributes}><circle cx="8" cy="8" r="8"/></svg>`,
  );

function gif(width: number, height: number): Uint8Array {
  const bytes = Buffer.from('GIF89a\0\0\0\0\x80\0\0\0\0\0\xff\xff\xff,\0\0\0\0\x01\0\x01\0\0\x02\x02D\x01\0;', 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return new Uint8Array(bytes);
}

const jpeg = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);
const text = new TextEncoder().encode('just some text, not an image');
const html = new TextEncoder().encode('<html><body><svg width="1" height="1"></svg></body></html>');

const check = (bytes: Uint8Array, purpose: UploadPurpose, size?: number) => {
  const result = checkUpload({ bytes, size, name: 'whatever.bin' }, purpose);
  return result.ok ? `ok:${result.kind}` : result.message;
};

describe('content detection (magic bytes)', () => {
  it('recognises PNG, JPEG, GIF, ICO and SVG by content, whatever the name', () => {
    assert.equal(detectImageKind(png(2, 2)), 'png');
    assert.equal(detectImageKind(jpeg), 'jpeg');
    assert.equal(detectImageKind(gif(4, 4)), 'gif');
    assert.equal(detectImageKind(ico([16, 16])), 'ico');
    assert.equal(detectImageKind(svg('width="16" height="16"')), 'svg');
    assert.equal(detectImageKind(new TextEncoder().encode('<svg/>')), 'svg');
    assert.equal(checkUpload({ bytes: png(8, 8), name: 'logo.svg' }, 'icon').ok && 'png', 'png', 'a PNG named .svg is a PNG');
  });

  it('rejects what is not an image', () => {
    assert.equal(detectImageKind(text), undefined);
    assert.equal(detectImageKind(html), undefined, 'an HTML page with an inline svg is not an SVG file');
    assert.equal(detectImageKind(new Uint8Array([0, 0, 1, 0, 0, 0])), undefined, 'an ICO header without images');
    assert.equal(detectImageKind(new Uint8Array()), undefined);
  });

  it('reads dimensions from the bytes', () => {
    assert.deepEqual(imageDimensions(png(3, 2)), { width: 3, height: 2 });
    assert.deepEqual(imageDimensions(ico([16, 16], [256, 256])), { width: 256, height: 256 });
    assert.deepEqual(imageDimensions(ico([32, 32], [32, 16])), { width: 32, height: 16 }, 'a non-square entry is reported');
    assert.deepEqual(imageDimensions(svg('width="48px" height="48"')), { width: 48, height: 48 });
    assert.deepEqual(imageDimensions(svg('viewBox="0 0 24 24"')), { width: 24, height: 24 });
    assert.deepEqual(imageDimensions(svg('width="100%" height="100%" viewBox="0,0,64,32"')), { width: 64, height: 32 });
    assert.equal(imageDimensions(svg('class="x"')), undefined);
    assert.deepEqual(imageDimensions(gif(5, 7)), { width: 5, height: 7 });
  });
});

describe('upload checks', () => {
  it('generic image: jpeg, png, ico or svg', () => {
    assert.equal(check(jpeg, 'image'), 'ok:jpeg');
    assert.equal(check(png(4, 4), 'image'), 'ok:png');
    assert.equal(check(ico([16, 16]), 'image'), 'ok:ico');
    assert.equal(check(svg('viewBox="0 0 1 1"'), 'image'), 'ok:svg');
    assert.equal(check(gif(1, 1), 'image'), 'upload.wrongType');
    assert.equal(check(text, 'image'), 'upload.wrongType');
  });

  it('icon: jpg/png/svg, at most 150 KB', () => {
    assert.equal(check(png(4, 4), 'icon'), 'ok:png');
    assert.equal(check(jpeg, 'icon'), 'ok:jpeg');
    assert.equal(check(svg('width="10" height="20"'), 'icon'), 'ok:svg', 'an icon need not be square');
    assert.equal(check(ico([16, 16]), 'icon'), 'upload.iconType');
    assert.equal(check(gif(1, 1), 'icon'), 'upload.iconType');
    assert.equal(check(png(4, 4), 'icon', 150 * 1024), 'ok:png');
    assert.equal(check(png(4, 4), 'icon', 150 * 1024 + 1), 'upload.iconTooLarge');
  });

  it('a real 150 KB+ file is too large by its own length', () => {
    const big = new Uint8Array(150 * 1024 + 1);
    big.set(png(1, 1));
    assert.equal(check(big, 'icon'), 'upload.iconTooLarge');
  });

  it('favicon: .ico or svg, at most 20 KB, square', () => {
    assert.equal(check(ico([32, 32]), 'favicon'), 'ok:ico');
    assert.equal(check(ico([16, 16], [48, 48]), 'favicon'), 'ok:ico');
    assert.equal(check(svg('width="32" height="32"'), 'favicon'), 'ok:svg');
    assert.equal(check(svg('viewBox="0 0 16 16"'), 'favicon'), 'ok:svg');
    assert.equal(check(png(32, 32), 'favicon'), 'upload.faviconType');
    assert.equal(check(jpeg, 'favicon'), 'upload.faviconType');
    assert.equal(check(ico([32, 32]), 'favicon', 20 * 1024 + 1), 'upload.faviconTooLarge');
    assert.equal(check(ico([32, 16]), 'favicon'), 'upload.faviconSquare');
    assert.equal(check(svg('width="32" height="16"'), 'favicon'), 'upload.faviconSquare');
    assert.equal(check(svg('class="no-size"'), 'favicon'), 'upload.faviconSquare', 'unknown dimensions are not square');
  });

  it('avatar: png, jpg/jpeg, gif, svg', () => {
    assert.equal(check(png(2, 3), 'avatar'), 'ok:png');
    assert.equal(check(jpeg, 'avatar'), 'ok:jpeg');
    assert.equal(check(gif(2, 2), 'avatar'), 'ok:gif');
    assert.equal(check(svg('viewBox="0 0 2 2"'), 'avatar'), 'ok:svg');
    assert.equal(check(ico([16, 16]), 'avatar'), 'upload.avatarType');
  });

  it('answers the MIME type and dimensions of an accepted file', () => {
    assert.deepEqual(checkUpload({ bytes: ico([32, 32]) }, 'favicon'), { ok: true, kind: 'ico', mimeType: 'image/x-icon', width: 32, height: 32 });
    assert.equal(acceptOf('favicon'), '.ico,image/x-icon,.svg,image/svg+xml');
  });
});

describe('upload messages', () => {
  after(() => setLocale('en'));

  it('the exact Chinese texts of the validation rules', async () => {
    await setLocale('zh');
    assert.equal(t('upload.wrongType'), '选择文件类型不对，请检查');
    assert.equal(t('upload.iconTooLarge'), '图片大小不能超过150kb！');
    assert.equal(t('upload.iconType'), '图片必须是jpg、png、svg类型！');
    assert.equal(t('upload.faviconTooLarge'), '图片大小不能超过20kb！');
    assert.equal(t('upload.faviconType'), '请上传ico或svg格式的图标');
    assert.equal(t('upload.faviconSquare'), '请选择方图（长宽相等）');
    assert.equal(t('upload.button'), '上传');
  });

  it('English texts exist for each', async () => {
    await setLocale('en');
    for (const key of ['wrongType', 'iconTooLarge', 'iconType', 'faviconTooLarge', 'faviconType', 'faviconSquare', 'avatarType'] as const) {
      assert.doesNotMatch(t(`upload.${key}`), /^upload\.|[\u4e00-\u9fa5]/, key);
    }
  });
});
