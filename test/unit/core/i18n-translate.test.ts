// The pure steps of a translation: dotted-key lookup in a resource tree and `{{name}}` interpolation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { interpolate, lookup } from '../../../src/core/i18n/translate';

describe('lookup', () => {
  const resources = { title: 'Sign in', rule: { range: 'From {{min}} to {{max}}', nested: { deep: 'Deep' } } };

  it('finds top-level and nested texts by dotted path', () => {
    assert.equal(lookup(resources, 'title'), 'Sign in');
    assert.equal(lookup(resources, 'rule.range'), 'From {{min}} to {{max}}');
    assert.equal(lookup(resources, 'rule.nested.deep'), 'Deep');
  });

  it('answers undefined for a missing key, a path through a text, an object, or no resources', () => {
    assert.equal(lookup(resources, 'missing'), undefined);
    assert.equal(lookup(resources, 'title.more'), undefined);
    assert.equal(lookup(resources, 'rule'), undefined);
    assert.equal(lookup(resources, 'rule.nested.missing'), undefined);
    assert.equal(lookup(undefined, 'title'), undefined);
  });

  it('never reads inherited properties', () => {
    assert.equal(lookup(resources, 'toString'), undefined);
    assert.equal(lookup(resources, 'rule.constructor'), undefined);
  });
});

describe('interpolate', () => {
  it('fills every placeholder, with or without inner spaces, as text', () => {
    assert.equal(interpolate('From {{min}} to {{ max }}, {{min}} again', { min: 1, max: '<b>' }), 'From 1 to <b>, 1 again');
  });

  it('keeps a placeholder without a value; undefined and null give an empty string', () => {
    assert.equal(interpolate('Hello {{name}}'), 'Hello {{name}}');
    assert.equal(interpolate('Hello {{name}}', { other: 1 }), 'Hello {{name}}');
    assert.equal(interpolate('[{{a}}|{{b}}]', { a: undefined, b: null }), '[|]');
  });

  it('does not interpolate inside inserted values', () => {
    assert.equal(interpolate('{{a}} {{b}}', { a: '{{b}}', b: 'x' }), '{{b}} x');
  });
});
