// The top bar's unread count lives in the core: it is read again after every change to the inbox
// (mark read, mark all read, delete), and a failed read keeps the last known count.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { $unreadCount, markAllRead, markRead, refreshUnreadCount, remove } from '../../../src/core/api/messages';
import { configureHttp } from '../../../src/core/http';
import { delay, fail, ok, startApiServer, type ApiServer } from './support/api-server';

let server: ApiServer;
let unread = 0;

before(async () => {
  server = await startApiServer();
});
after(() => server.close());
beforeEach(() => {
  server.reset();
  configureHttp({ apiBase: server.apiBase, authMode: 'cookie', tokenName: 'token' });
  server.handle('GET /messages/unread/count', () => ok({ count: unread }));
});

/** The refresh after a change is not awaited by the change itself: wait until the store has it. */
async function countBecomes(expected: number): Promise<void> {
  for (let i = 0; i < 50 && $unreadCount.get() !== expected; i += 1) await delay(10);
  assert.equal($unreadCount.get(), expected);
}

describe('unread count', () => {
  it('is read from GET /messages/unread/count', async () => {
    unread = 3;
    await refreshUnreadCount();
    assert.equal($unreadCount.get(), 3);
  });

  it('follows mark read, delete and mark all read', async () => {
    unread = 3;
    await refreshUnreadCount();
    server.handle('PUT /messages/m1/read', () => ((unread = 2), ok(null)));
    await markRead('m1');
    await countBecomes(2);
    server.handle('DELETE /messages/m2', () => ((unread = 1), ok(null)));
    await remove('m2');
    await countBecomes(1);
    server.handle('PUT /messages/read', () => ((unread = 0), ok({ count: 1 })));
    assert.equal(await markAllRead(), 1);
    await countBecomes(0);
  });

  it('a failed read keeps the last count (silently)', async () => {
    unread = 4;
    await refreshUnreadCount();
    server.handle('GET /messages/unread/count', fail(500, 'broken'));
    await refreshUnreadCount();
    assert.equal($unreadCount.get(), 4);
  });
});
