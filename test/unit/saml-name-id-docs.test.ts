// docs/saml.md's table of requested NameID formats is what server/saml/name-id.ts does: each URN
// row is given in the format it names, the unspecified ones leave the app's setting, and the
// formats the table calls "anything else" are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { NAME_ID_URNS } from '../../server/saml/sp-metadata';
import { requestedFormat } from '../../server/saml/name-id';
import { NS, parseXml } from '../../server/saml/xml';

const docs = readFileSync(new URL('../../docs/saml.md', import.meta.url), 'utf8');
const asking = (format: string) =>
  requestedFormat(parseXml(`<samlp:AuthnRequest xmlns:samlp="${NS.protocol}"><samlp:NameIDPolicy Format="${format}"/></samlp:AuthnRequest>`).documentElement);

test("docs/saml.md's requested NameID formats are the ones given; the unspecified ones and the others as it says", () => {
  const rows = [...docs.matchAll(/^ {2}\| `(urn:oasis:names:tc:SAML:[^`]+)` \|/gm)].map((match) => match[1]!);
  assert.deepEqual(
    rows.map((urn) => [urn, asking(urn).format]),
    rows.map((urn) => [urn, Object.entries(NAME_ID_URNS).find(([, given]) => given === urn)?.[0]]),
  );
  assert.deepEqual([...rows, NAME_ID_URNS.unspecified].sort(), Object.values(NAME_ID_URNS).sort(), 'every format given has its row');
  for (const unspecified of [NAME_ID_URNS.unspecified, 'urn:oasis:names:tc:SAML:2.0:nameid-format:unspecified'])
    assert.deepEqual(asking(unspecified), { format: null });
  for (const other of ['X509SubjectName', 'kerberos', 'encrypted']) {
    assert.match(docs, new RegExp(`anything else \\([^)]*\`${other}\``));
    assert.ok(asking(`urn:oasis:names:tc:SAML:2.0:nameid-format:${other}`).refused, other);
  }
});
