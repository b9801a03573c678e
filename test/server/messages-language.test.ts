// Answers speak the console's language: the console sends its locale as Accept-Language and every
// message the server can answer with has a Chinese translation (server/http/messages.zh.json).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { answerLanguage, catalogKeys, localizeMessage } from '../../server/http/language';
import { startServer, type TestServer } from './harness';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

function serverSources(dir = 'server'): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return serverSources(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** The English messages the server source can answer with, numbers and names as the catalog writes them. */
function serverMessages(): Set<string> {
  const messages = new Set<string>();
  const call =
    /\b(?:ApiError\(\d+,\s*|fail\(|forbidden\(|unauthorized\(|conflict\(|tooMany\(|captchaError\(|notFound\(|LOGIN_FAILED = |message: )(['`])((?:(?!\1).)+)\1/g;
  for (const source of serverSources()) {
    for (const match of source.matchAll(call)) {
      const [whole, , text] = match as unknown as [string, string, string];
      if (whole.startsWith('message: ') && !/^[A-Z]/.test(text)) continue;
      const message = whole.startsWith('notFound(') ? `${text} not found` : text.replace(/\$\{[^}]+\}/g, '{n}');
      if (message.includes('{n} not found')) continue; // notFound's own template
      messages.add(message);
    }
  }
  return messages;
}

test('every message the server answers with has a Chinese translation', () => {
  const translated = new Set(catalogKeys('zh'));
  const missing = [...serverMessages()].filter((message) => !translated.has(message));
  assert.deepEqual(missing, [], `add these to server/http/messages.zh.json: ${JSON.stringify(missing)}`);
});

test('the first accepted language decides; numbers survive the translation', () => {
  assert.equal(answerLanguage('zh'), 'zh');
  assert.equal(answerLanguage('zh-CN,en;q=0.5'), 'zh');
  assert.equal(answerLanguage('en,zh;q=0.5'), 'en');
  assert.equal(answerLanguage(undefined), 'en');
  assert.equal(localizeMessage('Too many requests; retry in 42 s', 'zh'), '请求过于频繁，请 42 秒后重试');
  assert.equal(localizeMessage('Something new', 'zh'), 'Something new');
});

test('a refused sign-in answers in Chinese when the console is in Chinese, in English otherwise', async () => {
  const zh = await server.client().login('admin', 'wrong-password1', {}, { 'accept-language': 'zh' });
  assert.equal(zh.status, 401);
  assert.equal(zh.body.message, '用户名或密码错误');
  const en = await server.client().login('admin', 'wrong-password1');
  assert.equal(en.body.message, 'Invalid username or password');
});

test('a missing API route answers 404 in the requested language', async () => {
  const answer = await server.client().get('/api/no-such-call', { 'accept-language': 'zh-CN' });
  assert.equal(answer.status, 404);
  assert.equal(answer.body.message, '未找到');
});

test('a body of a media type the call does not take answers 415 in the requested language (a form upload only where a file is taken)', async () => {
  const form = '--B\r\nContent-Disposition: form-data; name="username"\r\n\r\nadmin\r\n--B--\r\n';
  for (const type of ['application/xml', 'multipart/form-data; boundary=B']) {
    const answer = await fetch(`${server.base}/api/authc/login`, {
      method: 'POST',
      headers: { 'content-type': type, origin: server.base, 'accept-language': 'zh-CN' },
      body: type.startsWith('multipart') ? form : '<login/>',
    });
    assert.equal(answer.status, 415, type);
    assert.equal(((await answer.json()) as { message: string }).message, '不支持此内容类型', type);
  }
});
