// docs/elements.md is generated from custom-elements.json and must not fall behind it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { elementReference, manifestPath, referencePath } from '../../scripts/element-reference.mjs';

test('docs/elements.md matches custom-elements.json (run node scripts/element-reference.mjs)', () => {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  assert.equal(readFileSync(referencePath, 'utf8'), elementReference(manifest));
});

test('the reference documents every published element', () => {
  const page = readFileSync(referencePath, 'utf8');
  for (const tag of ['iam-console', 'iam-login', 'iam-profile-dialog', 'iam-password-dialog', 'iam-provider']) {
    assert.match(page, new RegExp(`## \`<${tag}>\``));
  }
});
