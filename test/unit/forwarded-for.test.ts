// The client address a proxy gives with its source port is the address alone (server/http/forwarded-for.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withoutPort } from '../../server/http/forwarded-for';

test('an address with a port (IPv4, bracketed IPv6) loses the port; anything else is left as it is', () => {
  const cases: [string, string][] = [
    ['198.51.100.7:40001', '198.51.100.7'],
    ['[2001:db8::7]:40001', '2001:db8::7'],
    ['[2001:db8::7]', '2001:db8::7'],
    ['198.51.100.7', '198.51.100.7'],
    ['2001:db8::7', '2001:db8::7'],
    ['::ffff:198.51.100.7', '::ffff:198.51.100.7'],
    ['999.1.1.1:80', '999.1.1.1:80'],
    ['unknown', 'unknown'],
    ['[nonsense]:1', '[nonsense]:1'],
  ];
  assert.deepEqual(
    cases.map(([entry]) => [entry, withoutPort(entry)]),
    cases,
  );
});
