// The core's upload call tells the server what the image is for (?purpose=), so that the server
// applies the same rules as the console; against a real node:http server on 127.0.0.1.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileUrl, upload } from '../../../src/core/api/files';
import { configureHttp, setToken } from '../../../src/core/http';
import { UPLOAD_RULES, type UploadPurpose } from '../../../src/core/upload';
import { ok, startApiServer, type ApiServer } from './support/api-server';

let server: ApiServer;

before(async () => {
  server = await startApiServer();
});
after(() => server.close());
beforeEach(() => {
  server.reset();
  configureHttp({ apiBase: server.apiBase, authMode: 'cookie', tokenName: 'token' });
  setToken(undefined);
});

describe('core upload', () => {
  for (const purpose of Object.keys(UPLOAD_RULES) as UploadPurpose[]) {
    it(`sends purpose=${purpose} with the file and answers the stored url`, async () => {
      server.handle('POST /file/upload', (req) => ok({ url: `2026/${req.query.get('purpose')}.png` }));
      const url = await upload(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), 'picture.png', purpose);
      assert.equal(url, `2026/${purpose}.png`);
      const [sent] = server.requests;
      assert.equal(sent?.method, 'POST');
      assert.equal(sent?.query.get('purpose'), purpose);
      assert.match(String(sent?.headers['content-type']), /^multipart\/form-data; boundary=/);
      assert.match(sent?.body ?? '', /name="file"; filename="picture\.png"/);
    });
  }

  it('without a purpose, says so explicitly: image (the generic rule)', async () => {
    server.handle('POST /file/upload', ok({ url: 'x.png' }));
    await upload(new Blob([new Uint8Array([1])]), 'x.png');
    assert.equal(server.requests[0]?.query.get('purpose'), 'image');
  });

  it('the returned id is shown from /api/file/get/; other values show nothing', () => {
    const id = `${'0'.repeat(64)}.svg`;
    assert.equal(fileUrl(id), `${server.apiBase}/file/get/${id}`);
    assert.equal(fileUrl('../../cas/logout'), '');
  });
});
