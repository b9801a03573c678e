// Password transform: trim, SHA-256 hex of the UTF-8 bytes (known vectors), pluggable, policy first.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PasswordPolicyError, passwordPolicyIssue, setPasswordTransform, sha256Hex, transformNewPassword, transformPassword } from '../../../src/core/password';

describe('password transform', () => {
  afterEach(() => setPasswordTransform());

  it('SHA-256 hex matches the FIPS 180-2 vectors', () => {
    assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'), '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('hashes the UTF-8 bytes (agrees with node:crypto on non-ASCII text)', () => {
    for (const text of ['密码123', 'pässwörd1', '🔑key9']) {
      assert.equal(sha256Hex(text), createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });

  it('trims before transforming, and gives lowercase hex', async () => {
    const value = await transformPassword('  abc123\t\n');
    assert.equal(value, sha256Hex('abc123'));
    assert.match(value, /^[0-9a-f]{64}$/);
  });

  it('uses Web Crypto when the page has it', async () => {
    const { subtle } = globalThis.crypto;
    const digest = subtle.digest.bind(subtle);
    let calls = 0;
    Object.defineProperty(subtle, 'digest', { value: (...args: Parameters<SubtleCrypto['digest']>) => (calls++, digest(...args)), configurable: true });
    try {
      assert.equal(await transformPassword('密码123'), sha256Hex('密码123'));
      assert.equal(calls, 1);
    } finally {
      delete (subtle as { digest?: unknown }).digest;
    }
    assert.equal(subtle.digest, SubtleCrypto.prototype.digest, 'the spy is gone');
  });

  it('works without Web Crypto (crypto.subtle)', async () => {
    const subtle = Object.getOwnPropertyDescriptor(globalThis.crypto, 'subtle');
    Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined, configurable: true });
    try {
      assert.equal(await transformPassword('abc'), sha256Hex('abc'));
    } finally {
      if (subtle) Object.defineProperty(globalThis.crypto, 'subtle', subtle);
    }
  });

  it('is pluggable (sync or async), and restorable', async () => {
    setPasswordTransform((trimmed) => `custom:${trimmed}`);
    assert.equal(await transformPassword(' x1 '), 'custom:x1');
    setPasswordTransform(async (trimmed) => trimmed.toUpperCase());
    assert.equal(await transformPassword('ab1'), 'AB1');
    setPasswordTransform();
    assert.equal(await transformPassword('abc'), sha256Hex('abc'));
  });

  it('checks the policy on the trimmed plain password before the transform', async () => {
    let calls = 0;
    setPasswordTransform((trimmed) => {
      calls += 1;
      return trimmed;
    });
    for (const weak of ['abcdef', '123456', 'a1', '   a1b2   ', 'a1'.repeat(11)]) {
      await assert.rejects(transformNewPassword(weak), (error: unknown) => error instanceof PasswordPolicyError && error.message === 'rule.password');
    }
    await assert.rejects(transformNewPassword(''), (error: unknown) => error instanceof PasswordPolicyError && error.message === 'rule.required');
    assert.equal(calls, 0, 'the transform never saw a weak password');
    assert.equal(await transformNewPassword('  abc123  '), 'abc123');
    assert.equal(passwordPolicyIssue('abc123'), undefined);
    assert.equal(passwordPolicyIssue('abcdefghij'), 'rule.password');
  });
});
