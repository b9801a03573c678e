// The field rules of both modes (src/core/validation/field-rules.ts): what each takes and refuses,
// hostile strings included (bidi overrides, NUL, zero-width characters, very long and mixed-script
// input), phone numbers stored normalised, and the `fieldRule` schemas following the mode in force.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { FieldRules, fieldRule, fieldRules, followFieldRules, type FieldRulesMode } from '../../../src/core/validation/field-rules';
import { privilegeKey } from '../../../src/core/validation/privilege-key';
import { userCreateBody } from '../../../src/core/schemas/users';
import { changesFollowRules, unlessKept } from '../../../src/core/validation/changed-fields';
import { ruledUserFields } from '../../../src/core/validation/user';

const defaults = fieldRules(FieldRules.Default);
const international = fieldRules(FieldRules.International);

/** The first issue's message, or 'ok'. */
function verdict(schema: v.GenericSchema, value: unknown): string {
  const result = v.safeParse(schema, value);
  return result.success ? 'ok' : result.issues[0].message;
}

const HOSTILE = {
  bidi: 'Alice\u202eecilA',
  nul: 'Alice\u0000Smith',
  zeroWidth: 'Ali\u200bce',
  bom: '\ufeffAlice',
  lineSeparator: 'Alice\u2028Smith',
  tab: 'Alice\tSmith',
  newline: 'Alice\nSmith',
};

describe('default rules (the mainland set, unchanged)', () => {
  it('keep names of letters, digits, _, - or Chinese, 2-20', () => {
    for (const name of ['张三', 'alice_smith', 'Tina-Admin']) assert.equal(verdict(defaults.realName, name), 'ok', name);
    for (const name of ['Alice Smith', 'José', "O'Neil", 'a', 'x'.repeat(21)]) assert.equal(verdict(defaults.realName, name), 'rule.realName', name);
  });
  it('keep usernames of 3-20 and mainland mobile numbers', () => {
    assert.equal(verdict(defaults.username, 'alice@contoso.com'), 'rule.username');
    assert.equal(verdict(defaults.mobilePhone, '+44 20 7946 0958'), 'rule.phone');
    assert.equal(verdict(defaults.mobilePhone, '13800138000'), 'ok');
    assert.equal(verdict(defaults.tenantName, 'Acme Sales'), 'rule.tenantName');
  });
  it('refuse every hostile string', () => {
    for (const [what, value] of Object.entries(HOSTILE)) assert.notEqual(verdict(defaults.realName, value), 'ok', what);
  });
});

describe('international rules', () => {
  it('take real names in any script with spaces, apostrophes, periods and hyphens', () => {
    for (const name of [
      'Alice Smith',
      "José O'Neil-Ünal",
      'J. R. R. Tolkien',
      'Zoë D’Arcy',
      'Александр Пушкин',
      '김민준',
      '张三',
      'محمد علي',
      'Ng',
      'Nguyễn Văn A',
    ])
      assert.equal(verdict(international.realName, name), 'ok', name);
  });
  it('refuse names with control, bidi and format characters, named as such', () => {
    for (const [what, value] of Object.entries(HOSTILE).filter(([what]) => what !== 'tab' && what !== 'newline'))
      assert.equal(verdict(international.realName, value), 'rule.visibleCharacters', what);
    // Tabs and newlines are controls too.
    assert.equal(verdict(international.realName, HOSTILE.tab), 'rule.visibleCharacters');
    assert.equal(verdict(international.realName, HOSTILE.newline), 'rule.visibleCharacters');
  });
  it('refuse names that are too long, padded, doubly spaced, or made of punctuation', () => {
    assert.equal(verdict(international.realName, 'a'.repeat(100)), 'ok');
    for (const name of [
      'a'.repeat(101),
      'é'.repeat(5000),
      ' Alice',
      'Alice ',
      'Alice  Smith',
      "'Alice",
      '-',
      '.',
      '1Alice',
      'Alice <b>',
      'Alice@Smith',
      'Alice/Smith',
      '',
    ])
      assert.notEqual(verdict(international.realName, name), 'ok', JSON.stringify(name.slice(0, 20)));
    assert.equal(verdict(international.realName, ''), 'rule.required');
  });
  it('take mixed scripts in one name, but no symbol or emoji', () => {
    assert.equal(verdict(international.realName, 'Anna 李'), 'ok');
    assert.equal(verdict(international.realName, 'Anna 😀'), 'rule.realNameInternational');
  });
  it('take usernames that are an e-mail address or a UPN, and plain ones', () => {
    for (const name of ['alice@contoso.com', 'alice.smith@contoso.onmicrosoft.com', "o'neil@example.co.uk", 'alice_smith', 'a.b-c'])
      assert.equal(verdict(international.username, name), 'ok', name);
    for (const name of [
      'al',
      'alice@',
      '@contoso.com',
      'alice@contoso',
      'alice smith',
      'alice@@contoso.com',
      'ali\u202ece',
      'alice\u0000',
      `${'a'.repeat(120)}@contoso.com`,
    ])
      assert.notEqual(verdict(international.username, name), 'ok', name);
  });
  it('take E.164 phone numbers with the usual separators and answer them normalised', () => {
    assert.deepEqual(v.parse(international.mobilePhone, '+44 20 7946 0958'), '+442079460958');
    assert.deepEqual(v.parse(international.mobilePhone, '+1 (415) 555-0100'), '+14155550100');
    assert.deepEqual(v.parse(international.mobilePhone, '+86 138 0013 8000'), '+8613800138000');
    for (const phone of ['13800138000', '+0 20 7946 0958', '+44', '+1234567890123456', '+44 20 7946 0958 ext 1', '+44\u202e2079460958', '+44 20\u00007946'])
      assert.equal(verdict(international.mobilePhone, phone), 'rule.phoneInternational', phone);
  });
  it('take organisation names with spaces, never with a path separator', () => {
    assert.equal(verdict(international.tenantName, 'Acme Sales'), 'ok');
    assert.equal(verdict(international.tenantName, 'AT&T Research, Inc.'), 'ok');
    assert.equal(verdict(international.tenantName, 'Acme/Sales'), 'rule.nameInternational?max=50');
    assert.equal(verdict(international.roleName, 'Claims approver'), 'ok');
    assert.equal(verdict(international.roleName, 'x'.repeat(31)), 'rule.nameInternational?max=30');
  });
});

describe('privilege keys (both modes)', () => {
  it('take dotted keys and refuse the rest', () => {
    for (const key of ['claims.submit', 'a.b.c', 'user-list', 'ab']) assert.equal(verdict(privilegeKey, key), 'ok', key);
    // The error names what to change.
    assert.equal(verdict(privilegeKey, 'a'), 'rule.privilegeKeyLength?length=1');
    assert.equal(verdict(privilegeKey, 'x'.repeat(65)), 'rule.privilegeKeyLength?length=65');
    assert.equal(verdict(privilegeKey, 'claims submit'), 'rule.privilegeKeySpace');
    assert.equal(verdict(privilegeKey, 'claims/submit'), 'rule.privilegeKeyChar?char=%2F');
    assert.equal(verdict(privilegeKey, 'claims..submit'), 'rule.privilegeKeyDots');
    for (const key of ['.claims', '1claims']) assert.equal(verdict(privilegeKey, key), 'rule.safeCodeStart', key);
    assert.equal(verdict(privilegeKey, 'claims.'), 'rule.safeCodeEnd');
  });
});

describe('fieldRule follows the mode in force', () => {
  afterEach(() => followFieldRules(() => FieldRules.Default));
  it('one schema, both modes', () => {
    let mode: FieldRulesMode = FieldRules.Default;
    followFieldRules(() => mode);
    const body = { username: 'alice@contoso.com', realName: 'Alice Smith', mobilePhone: '+1 (415) 555-0100', password: 'a'.repeat(64) };
    assert.equal(verdict(fieldRule.realName, 'Alice Smith'), 'rule.realName');
    assert.equal(v.safeParse(userCreateBody, body).success, false);
    mode = FieldRules.International;
    const parsed = v.parse(userCreateBody, body);
    assert.equal(parsed.mobilePhone, '+14155550100');
    assert.equal(parsed.realName, 'Alice Smith');
  });
});

describe('only changed values are checked (stored values are never re-validated)', () => {
  const ruled = { realName: ruledUserFields.realName, mobilePhone: ruledUserFields.mobilePhone };
  const stored = { realName: 'Alice Smith', mobilePhone: '+14155550100' };
  it('an update carrying the stored values passes under rules that refuse them', () => {
    assert.deepEqual(changesFollowRules(ruled, { ...stored, description: 'x' }, stored), { success: true, output: { ...stored, description: 'x' } });
    // An empty phone is the same as none stored.
    assert.equal(changesFollowRules(ruled, { realName: '张三', mobilePhone: '' }, { realName: '张三', mobilePhone: null }).success, true);
  });
  it('a changed value, or every value of a new record, is checked by the rules in force', () => {
    assert.deepEqual(changesFollowRules(ruled, { realName: 'Alice B. Smith' }, stored), {
      success: false,
      fields: [{ field: 'realName', rule: 'rule.realName' }],
    });
    assert.deepEqual(changesFollowRules(ruled, { ...stored }), {
      success: false,
      fields: [
        { field: 'realName', rule: 'rule.realName' },
        { field: 'mobilePhone', rule: 'rule.phone' },
      ],
    });
    followFieldRules(() => FieldRules.International);
    try {
      assert.deepEqual(changesFollowRules(ruled, { mobilePhone: '+1 (415) 555-0199' }, stored), { success: true, output: { mobilePhone: '+14155550199' } });
    } finally {
      followFieldRules(() => FieldRules.Default);
    }
  });
  it("a form's stored value passes as it is, another follows the rule", () => {
    const form = v.object({ realName: unlessKept('Alice Smith', fieldRule.realName) });
    assert.equal(verdict(form, { realName: 'Alice Smith' }), 'ok');
    assert.equal(verdict(form, { realName: 'Alice Jones' }), 'rule.realName');
  });
});
