// Where the personal center says passkeys cannot be added, instead of the browser's raw error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { passkeysNotHere } from '../../src/react/screens/userInfo/passkeysHere';

const page = (url: string) => new URL(url);

describe('passkeysNotHere', () => {
  it('an IP address: named, whatever the server answered', () => {
    assert.deepEqual(passkeysNotHere(null, page('http://127.0.0.1:8080/home')), { reason: 'ipAddress', host: '127.0.0.1:8080' });
    assert.deepEqual(passkeysNotHere('localhost', page('http://[::1]:8080/')), { reason: 'ipAddress', host: '[::1]:8080' });
  });
  it('an origin the server accepts no passkeys from, or a host outside the RP ID: the origin is named', () => {
    assert.deepEqual(passkeysNotHere(null, page('https://shop.example.org/')), { reason: 'origin', origin: 'https://shop.example.org' });
    assert.deepEqual(passkeysNotHere('example.com', page('https://notexample.com/')), { reason: 'origin', origin: 'https://notexample.com' });
  });
  it('the RP ID or a host below it; or the answer not read yet: the browser is asked', () => {
    assert.equal(passkeysNotHere('localhost', page('http://localhost:8080/')), undefined);
    assert.equal(passkeysNotHere('example.com', page('https://iam.example.com/')), undefined);
    assert.equal(passkeysNotHere(undefined, page('http://127.0.0.1:8080/')), undefined);
  });
});
