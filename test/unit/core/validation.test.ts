// Every row: valid and invalid values, and the message shown for them in English and Chinese.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { adminResetForm, loginForm, rules, selfPasswordForm, validate } from '../../../src/core/validation';
import { profileForm, userCreateForm, userUpdateForm } from '../../../src/core/validation/user';
import { setLocale, tRule } from '../../../src/core/i18n';
import { formatRuleMessage, parseRuleMessage } from '../../../src/core/rule-message';

interface Row {
  row: string;
  schema: v.GenericSchema;
  valid: unknown[];
  invalid: unknown[];
  /** The message of the invalid values, as shown in each locale. */
  en: string;
  zh: string;
}

const long = (length: number, char = 'a') => char.repeat(length);

const rows: Row[] = [
  {
    row: 'Mobile phone',
    schema: rules.mobilePhone,
    valid: ['13800138000', '19912345678', '15011112222'],
    invalid: ['12800138000', '1380013800', '138001380001', '23800138000', 'phone'],
    en: 'Please enter a valid mobile phone number',
    zh: '请输入正确的手机号',
  },
  {
    row: 'Email',
    schema: rules.email,
    valid: ['a@b.co', 'first.last+tag@example.com'],
    invalid: ['a@b', 'not-an-email', 'a b@c.com', '@example.com'],
    en: 'Please enter a valid email address',
    zh: '请输入正确的邮箱地址',
  },
  {
    row: 'Real name',
    schema: rules.realName,
    valid: ['张三', 'Bob_Smith-2', 'ab', long(20)],
    invalid: ['a', long(21), 'bad name', 'semi;colon'],
    en: 'Use 2-20 letters, digits, underscores, hyphens or Chinese characters',
    zh: '请输入2-20位字母、数字、下划线、中划线或汉字',
  },
  {
    row: 'User name / account name',
    schema: rules.username,
    valid: ['bob', 'user_name-01', long(20)],
    invalid: ['ab', long(21), 'bad name', '中文名字'],
    en: "Use 3-20 letters, digits, '-' or '_'",
    zh: '请输入3-20位字母、数字、“-”或“_”',
  },
  {
    row: 'New password',
    schema: rules.newPassword,
    valid: ['abc123', 'pass word 1', '1a2b3c4d5e6f7g8h9i0j'],
    invalid: ['abcdef', '123456', 'a1b2', '1a2b3c4d5e6f7g8h9i0jk'],
    en: 'The password must be 6-20 characters with at least one digit and one non-digit',
    zh: '密码须为6-20位，且至少包含一个数字和一个非数字字符',
  },
  {
    row: 'Old password, administrator password',
    schema: rules.currentPassword,
    valid: ['x', 'old secret'],
    invalid: ['', undefined],
    en: 'This field is required',
    zh: '此项为必填项',
  },
  {
    row: 'Role name',
    schema: rules.roleName,
    valid: ['管理员', 'role_admin', long(30)],
    invalid: ['r', long(31), 'role name'],
    en: 'Use 2-30 letters, digits, underscores, hyphens or Chinese characters',
    zh: '请输入2-30位字母、数字、下划线、中划线或汉字',
  },
  {
    row: 'Tenant name',
    schema: rules.tenantName,
    valid: ['ACME公司', 'tenant-01', long(50)],
    invalid: ['-acme', 'a', long(51), 'acme!'],
    en: "Use 2-50 letters, digits, underscores, hyphens or Chinese characters, not starting with '-'",
    zh: '请输入2-50位字母、数字、下划线、中划线或汉字，且不能以“-”开头',
  },
  {
    row: 'App name',
    schema: rules.appName,
    valid: ['my-app', '应用一'],
    invalid: ['-app', 'x', long(51)],
    en: "Use 2-50 letters, digits, underscores, hyphens or Chinese characters, not starting with '-'",
    zh: '请输入2-50位字母、数字、下划线、中划线或汉字，且不能以“-”开头',
  },
  {
    row: 'Required',
    schema: rules.required,
    valid: ['x', ' x '],
    invalid: ['', '   ', undefined, null],
    en: 'This field is required',
    zh: '此项为必填项',
  },
  // A code (a privilege's key) that fails says what is wrong with it, not the whole rule again.
  {
    row: 'Safe code: length',
    schema: rules.safeCode,
    valid: ['ab', 'a1', 'code_01x', `a${long(18, 'b')}c`],
    invalid: ['a', 'Z'],
    en: 'Use 2-20 characters; this one has 1',
    zh: '请输入2-20位字符，当前为1位',
  },
  {
    row: 'Safe code: too long',
    schema: rules.safeCode,
    valid: [],
    invalid: [`a${long(19, 'b')}c`],
    en: 'Use 2-20 characters; this one has 21',
    zh: '请输入2-20位字符，当前为21位',
  },
  {
    row: 'Safe code: first character',
    schema: rules.safeCode,
    valid: [],
    invalid: ['1abc', '_ab', '-ab'],
    en: 'Start with a letter (A-Z or a-z)',
    zh: '请以字母开头（A-Z 或 a-z）',
  },
  {
    row: 'Safe code: last character',
    schema: rules.safeCode,
    valid: [],
    invalid: ['ab-', 'ab_'],
    en: 'End with a letter or a digit',
    zh: '请以字母或数字结尾',
  },
  {
    row: 'Safe code: a character it may not hold',
    schema: rules.safeCode,
    valid: [],
    invalid: ['中文', 'a中b'],
    en: 'Use only letters, digits, _ and -; “中” is not allowed',
    zh: '只能使用字母、数字、_ 和 -，不能包含“中”',
  },
  {
    row: 'Safe code: spaces',
    schema: rules.safeCode,
    valid: [],
    invalid: ['a b', 'users '],
    en: 'Remove the spaces: use only letters, digits, _ and -',
    zh: '请去掉空格：只能使用字母、数字、_ 和 -',
  },
  {
    row: 'Resource name',
    schema: rules.resourceName,
    valid: ['用户', 'Users list', `r${long(59)}`],
    invalid: ['1users', '_x', 'a', `r${long(60)}`],
    en: 'Use 2-60 characters, starting with a letter or a Chinese character',
    zh: '请输入2-60位字符，以字母或汉字开头',
  },
  {
    row: 'Description',
    schema: rules.description,
    valid: ['A normal description', '描述', long(255)],
    invalid: ['http://spam.example', 'HTTPS://x.example', 'x', long(256)],
    en: 'Use 2-255 characters, not starting with http or https',
    zh: '请输入2-255位字符，且不能以http或https开头',
  },
  {
    row: 'Remark',
    schema: rules.remark,
    valid: ['ok', long(500)],
    invalid: ['https://spam.example', 'y', long(501)],
    en: 'Use 2-500 characters, not starting with http or https',
    zh: '请输入2-500位字符，且不能以http或https开头',
  },
  {
    row: 'Phone (generic)',
    schema: rules.phone,
    valid: ['13800138000', '010-12345678', '075512345678'],
    invalid: ['12345', 'phone', '10-1234567'],
    en: 'Please enter a valid phone number',
    zh: '请输入正确的手机号',
  },
  {
    row: 'Domain',
    schema: rules.domain,
    valid: ['example.com', 'sub.example.co.uk', 'xn--fsq.example'],
    invalid: ['-bad.com', 'example', 'exa mple.com', 'http://example.com'],
    en: 'Please enter a valid domain name',
    zh: '请输入正确域名格式',
  },
  {
    row: 'Path',
    schema: rules.path,
    valid: ['/a/b', 'a/b', '/', '/a/b/', 'v1.2/file_name~x'],
    invalid: ['/a b', '//a', 'a//b', '/a?b'],
    en: 'Please enter a valid path',
    zh: '请输入正确路径格式',
  },
  {
    row: 'Absolute path',
    schema: rules.absolutePath,
    valid: ['/', '/a/b'],
    invalid: ['a/b', 'a'],
    en: "The path must start with '/'",
    zh: '路径必须以“/”开头',
  },
  {
    row: 'Relative path',
    schema: rules.relativePath,
    valid: ['a/b', 'a'],
    invalid: ['/a', 'a b'],
    en: "Please enter a valid relative path (not starting with '/')",
    zh: '请输入正确的相对路径（不能以“/”开头）',
  },
  {
    row: 'URL',
    schema: rules.url,
    valid: ['https://example.com/x?y=1', 'http://localhost:8080'],
    invalid: ['javascript:alert(1)', 'example.com', 'ftp://example.com', 'https://'],
    en: 'Please enter a valid URL starting with http:// or https://',
    zh: '请输入以http://或https://开头的正确网址',
  },
  {
    row: 'JSON',
    schema: rules.json,
    valid: ['{"a":1}', '[1,2]', '"text"'],
    invalid: ['{a:1}', '{', "{'a':1}"],
    en: 'Please enter valid JSON',
    zh: '请输入正确的JSON格式',
  },
  {
    row: 'Port',
    schema: rules.port,
    valid: [1, 8080, 65535],
    invalid: [0, 65536, 1.5, '80', -1],
    en: 'Please enter an integer from 1 to 65535',
    zh: '请输入1~65535之间的整数',
  },
  {
    row: 'Range',
    schema: rules.range(1, 10),
    valid: [1, 5, 10],
    invalid: [0, 11, 2.5, '5'],
    en: 'Please enter an integer from 1 to 10',
    zh: '请输入1~10之间的整数',
  },
  {
    row: 'No Chinese',
    schema: rules.noChinese,
    valid: ['abc', 'a-b_c 1', ''],
    invalid: ['abc中', '中文'],
    en: 'Chinese characters are not allowed',
    zh: '不能包含中文字符',
  },
  {
    row: 'Positive integer',
    schema: rules.positiveInteger,
    valid: [1, 42],
    invalid: [0, -1, 1.5, '3'],
    en: 'Please enter a positive integer',
    zh: '请输入正整数',
  },
  {
    row: 'Max length',
    schema: rules.maxLength(5),
    valid: ['', 'abcde'],
    invalid: ['abcdef'],
    en: 'Use at most 5 characters',
    zh: '最多输入5个字符',
  },
  {
    row: 'Serial number required',
    schema: rules.serialNumber,
    valid: ['SN-2024-0001'],
    invalid: ['', '   ', undefined],
    en: 'Please enter the serial number',
    zh: '请输入序列号',
  },
];

/** The message a value gets from a schema, in the current locale (undefined when valid). */
function messageOf(schema: v.GenericSchema, value: unknown): string | undefined {
  const result = validate(schema, value);
  return result.success ? undefined : tRule(result.fields[0]?.rule ?? '');
}

const locales = ['en', 'zh'] as const;

for (const locale of locales) {
  describe(`field rules (${locale})`, () => {
    before(() => setLocale(locale));
    after(() => setLocale('en'));
    for (const row of rows) {
      it(`${row.row}: accepts valid values`, () => {
        for (const value of row.valid) assert.equal(messageOf(row.schema, value), undefined, `${JSON.stringify(value)} should be valid`);
      });
      it(`${row.row}: rejects invalid values with the ${locale} message`, () => {
        for (const value of row.invalid) assert.equal(messageOf(row.schema, value), row[locale], `${JSON.stringify(value)} should be invalid`);
      });
    }
    it('an empty required field says the field is required, not the format', () => {
      for (const schema of [
        rules.mobilePhone,
        rules.email,
        rules.realName,
        rules.username,
        rules.newPassword,
        rules.domain,
        rules.path,
        rules.url,
        rules.json,
      ]) {
        assert.equal(messageOf(schema, ''), locale === 'en' ? 'This field is required' : '此项为必填项');
      }
    });
  });
}

describe('forms', () => {
  before(() => setLocale('en'));

  it('login form: the login messages', async () => {
    const invalid = validate(loginForm, { username: '  ', password: '12345' });
    assert.equal(invalid.success, false);
    assert.deepEqual(!invalid.success && invalid.fields.map(({ field, rule }) => [field, tRule(rule)]), [
      ['username', 'Please enter the correct user name'],
      ['password', 'The password can not be less than 6 digits'],
    ]);
    assert.equal(validate(loginForm, { username: 'admin', password: '123456' }).success, true);
    await setLocale('zh');
    const zh = validate(loginForm, { username: '', password: '' });
    assert.deepEqual(!zh.success && zh.fields.map(({ rule }) => tRule(rule)), ['请输入正确的用户名', '密码不能少于6位']);
    await setLocale('en');
  });

  it('profile form: phone and email are optional but checked when given', () => {
    assert.equal(validate(profileForm, { username: 'bob', realName: '张三', avatar: '', mobilePhone: '', email: '' }).success, true);
    assert.equal(validate(profileForm, { realName: '张三' }).success, true);
    const invalid = validate(profileForm, { realName: 'x', mobilePhone: '123', email: 'a@b' });
    assert.deepEqual(!invalid.success && invalid.fields, [
      { field: 'realName', rule: 'rule.realName' },
      { field: 'mobilePhone', rule: 'rule.phone' },
      { field: 'email', rule: 'rule.email' },
    ]);
  });

  it('self password form: confirm password required, then equal to the new password', () => {
    assert.equal(validate(selfPasswordForm, { oldPassword: 'old1', newPassword: 'abc123', confirmPassword: 'abc123' }).success, true);
    const mismatch = validate(selfPasswordForm, { oldPassword: 'old1', newPassword: 'abc123', confirmPassword: 'abc124' });
    assert.deepEqual(!mismatch.success && mismatch.fields, [{ field: 'confirmPassword', rule: 'rule.confirmPasswordMismatch' }]);
    assert.equal(tRule('rule.confirmPasswordMismatch'), 'The two passwords do not match');
    const empty = validate(selfPasswordForm, { oldPassword: '', newPassword: 'abc', confirmPassword: '' });
    assert.deepEqual(!empty.success && empty.fields, [
      { field: 'oldPassword', rule: 'rule.required' },
      { field: 'newPassword', rule: 'rule.password' },
      { field: 'confirmPassword', rule: 'rule.confirmPasswordRequired' },
    ]);
    assert.equal(tRule('rule.confirmPasswordRequired'), 'Please enter the password again');
  });

  it('admin reset form: the administrator password is required, confirmation must match', () => {
    assert.equal(validate(adminResetForm, { username: 'bob', adminPassword: 'mine', newPassword: 'abc123', confirmPassword: 'abc123' }).success, true);
    const invalid = validate(adminResetForm, { username: 'bob', adminPassword: '', newPassword: 'abc123', confirmPassword: 'abc123' });
    assert.deepEqual(!invalid.success && invalid.fields, [{ field: 'adminPassword', rule: 'rule.required' }]);
    const mismatch = validate(adminResetForm, { username: 'bob', adminPassword: 'mine', newPassword: 'abc123', confirmPassword: 'xyz789' });
    assert.deepEqual(!mismatch.success && mismatch.fields, [{ field: 'confirmPassword', rule: 'rule.confirmPasswordMismatch' }]);
  });

  it('user create/update (User)', () => {
    const user = { username: 'alice', realName: 'Alice', password: 'abc123', email: '', mobilePhone: '13800138000', availabilityStatus: 1, extraProp: {} };
    assert.equal(validate(userCreateForm, user).success, true);
    const invalid = validate(userCreateForm, { ...user, username: 'a b', password: 'abcdef', availabilityStatus: 3 });
    assert.deepEqual(!invalid.success && invalid.fields.map((field) => field.field), ['availabilityStatus', 'username', 'password']);
    assert.equal(validate(userUpdateForm, { realName: 'Alice', description: 'ok', version: 2 }).success, true);
    const update = validate(userUpdateForm, { realName: 'Alice', description: 'http://x.example' });
    assert.deepEqual(!update.success && update.fields, [{ field: 'description', rule: 'rule.description' }]);
  });

  it('a missing object answers rule.required at the root', () => {
    assert.deepEqual(validate(loginForm, null), { success: false, fields: [{ field: '', rule: 'rule.required' }] });
  });
});

describe('rule messages with parameters', () => {
  it('round-trips key and parameters', () => {
    const message = formatRuleMessage('rule.range', { min: 1, max: 10 });
    assert.equal(message, 'rule.range?min=1&max=10');
    assert.deepEqual(parseRuleMessage(message), { key: 'rule.range', params: { min: '1', max: '10' } });
    assert.deepEqual(parseRuleMessage('rule.phone'), { key: 'rule.phone', params: {} });
    assert.equal(formatRuleMessage('rule.phone'), 'rule.phone');
  });
});

describe('JSON Schema conversion (the server builds its OpenAPI from these rules)', () => {
  const convertible = rows.filter((row) => row.row !== 'JSON');

  for (const row of convertible) {
    it(`${row.row} converts, and the JSON Schema (pattern under the u flag, lengths, bounds) agrees with valibot`, () => {
      const schema = toJsonSchema(row.schema, { errorMode: 'throw' }) as {
        type?: string;
        pattern?: string;
        format?: string;
        minLength?: number;
        maxLength?: number;
        minimum?: number;
        maximum?: number;
      };
      // JSON Schema validators (ajv) compile patterns with the u flag.
      const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
      const accepts = (value: unknown): boolean => {
        if (schema.type === 'string') {
          if (typeof value !== 'string') return false;
          if (value.length < (schema.minLength ?? 0) || value.length > (schema.maxLength ?? Infinity)) return false;
          return !pattern || pattern.test(value);
        }
        return (
          typeof value === 'number' &&
          (schema.type !== 'integer' || Number.isInteger(value)) &&
          value >= (schema.minimum ?? -Infinity) &&
          value <= (schema.maximum ?? Infinity)
        );
      };
      for (const value of row.valid) assert.equal(accepts(value), true, `${JSON.stringify(value)} accepted`);
      // A format (email) is checked by the validator's format support, not here.
      if (!schema.format) for (const value of row.invalid) assert.equal(accepts(value), false, `${JSON.stringify(value)} rejected`);
    });
  }

  it('the JSON rule needs errorMode ignore (a check is not expressible in JSON Schema)', () => {
    assert.throws(() => toJsonSchema(rules.json, { errorMode: 'throw' }));
    assert.deepEqual(toJsonSchema(rules.json, { errorMode: 'ignore' }), { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', minLength: 1 });
  });
});
