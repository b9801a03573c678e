// The spelled-out class of invisible characters (src/core/validation/visible-text.ts) is exactly
// Unicode's Cc, Cf, Zl and Zp in the Basic Multilingual Plane, as this Node's Unicode tables say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasInvisibleCharacters } from '../../../src/core/validation/visible-text';

test('the class is Cc, Cf, Zl and Zp of the Basic Multilingual Plane, no more, no less', () => {
  const category = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
  const differ: string[] = [];
  for (let code = 0; code <= 0xffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const character = String.fromCharCode(code);
    if (category.test(character) !== hasInvisibleCharacters(character)) differ.push(code.toString(16));
  }
  assert.deepEqual(differ, []);
});
