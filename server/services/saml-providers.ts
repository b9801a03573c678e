// An app as a SAML service provider, behind the saml-provider calls of server/routes/saml.ts: its
// settings for those who may manage the app (the same rule as its OpenID Connect client,
// server/services/app-clients.ts), read from fields and/or the SP's metadata (pasted, or fetched
// through the outbound address guard), audited as an app change.
import * as v from 'valibot';
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { samlUrl, type samlProviderBody, type NameIdFormat, type SloBinding, type AssertionEncryption } from '../../src/core/schemas/saml';
import type { SamlServiceProviderTable } from '../db/tables';
import { canManageApp } from '../auth/scope';
import { fieldError, notFound, type FieldError } from '../http/errors';
import { removedOnce } from '../db/removal';
import { assertOutboundUri } from '../http/outbound-field';
import { outboundFetch, outboundPolicy } from '../http/outbound-address';
import { readSpMetadata, type AcsService, type SpMetadata } from '../saml/sp-metadata';
import { hasRsaKey, toPem } from '../saml/certificates';
import { SamlError, MAX_XML_BYTES } from '../saml/xml';
import { idpEndpoints } from '../saml/endpoints';
import { lockByName } from '../db/named-lock';
import { unique } from './apps';

type Body = v.InferOutput<typeof samlProviderBody>;

async function manageableApp(ctx: Ctx, actor: Actor, appId: string) {
  const row = await ctx.db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst();
  if (!row || !canManageApp(actor, appId)) throw notFound('App');
}

export const toSamlProvider = (row: SamlServiceProviderTable) => ({
  appId: row.appId,
  entityId: row.entityId,
  acsUrls: JSON.parse(row.acsUrls) as AcsService[],
  sloUrl: row.sloUrl,
  nameIdFormat: row.nameIdFormat as NameIdFormat,
  signingCert: row.signingCert,
  encryptionCert: row.encryptionCert,
  wantRequestsSigned: row.wantRequestsSigned === 1,
  signResponse: row.signResponse === 1,
  signAssertion: row.signAssertion === 1,
  metadataUrl: row.metadataUrl,
  sloBinding: row.sloUrl ? ((row.sloBinding ?? 'HTTP-Redirect') as SloBinding) : null,
  assertionEncryption: (row.assertionEncryption ?? 'aes256-gcm') as AssertionEncryption,
  encryptAssertions: row.encryptAssertions === 1,
});

const providerRow = (ctx: Ctx, appId: string) => ctx.db.selectFrom('samlServiceProviders').selectAll().where('appId', '=', appId).executeTakeFirst();

export async function providerOf(ctx: Ctx, actor: Actor, appId: string) {
  await manageableApp(ctx, actor, appId);
  const row = await providerRow(ctx, appId);
  return { provider: row ? toSamlProvider(row) : null, idp: idpEndpoints(ctx) };
}

/** The field the body's metadata came from. */
const metadataFieldOf = (body: Body) => (body.metadataXml ? 'metadataXml' : 'metadataUrl');

/** The metadata of the body: pasted, or fetched from its URL (a public address unless the operator
 *  allows more); a document that cannot be read answers 400 on the field it came from. */
async function metadataOf(ctx: Ctx, body: Body): Promise<SpMetadata | undefined> {
  const field = metadataFieldOf(body);
  let xml = body.metadataXml;
  if (!xml && body.metadataUrl) {
    await assertOutboundUri(ctx, 'metadataUrl', body.metadataUrl);
    const answer = await outboundFetch(body.metadataUrl, { ...outboundPolicy(ctx.config), maxResponseBytes: MAX_XML_BYTES + 1 }).catch(() => undefined);
    if (!answer?.ok) throw fieldError([{ field, rule: 'rule.samlMetadata' }]);
    xml = await answer.text();
  }
  if (!xml) return undefined;
  try {
    return readSpMetadata(xml);
  } catch (error) {
    if (error instanceof SamlError) throw fieldError([{ field, rule: 'rule.samlMetadata' }]);
    throw error;
  }
}

function pemOrRefuse(field: string, text: string | undefined, fields: FieldError[]): string | null | undefined {
  if (text === undefined || text === '') return text === '' ? null : undefined;
  try {
    return toPem(text);
  } catch {
    fields.push({ field, rule: 'rule.certificate' });
    return undefined;
  }
}

/** Registers or changes the app as a service provider. */
export async function saveProvider(ctx: Ctx, actor: Actor, appId: string, body: Body, ip: string) {
  await manageableApp(ctx, actor, appId);
  const was = await providerRow(ctx, appId);
  const metadata = await metadataOf(ctx, body);
  const fields: FieldError[] = [];
  const signingCert = pemOrRefuse('signingCert', body.signingCert, fields);
  const encryptionCert = pemOrRefuse('encryptionCert', body.encryptionCert, fields);
  const entityId = body.entityId ?? metadata?.entityId ?? was?.entityId;
  const acsUrls = body.acsUrls ?? (metadata?.acsUrls.length ? metadata.acsUrls : undefined) ?? (was ? toSamlProvider(was).acsUrls : undefined);
  const sloUrl = body.sloUrl === '' ? null : (body.sloUrl ?? metadata?.sloUrl ?? was?.sloUrl ?? null);
  if (!entityId) fields.push({ field: 'entityId', rule: 'rule.required' });
  if (!acsUrls?.length) fields.push({ field: 'acsUrls', rule: 'rule.required' });
  // Locations read from metadata obey the rule of the fields: absolute http(s) URLs (never a
  // javascript: or data: URL the post page would send the person's assertion to).
  if (acsUrls?.some((acs) => !v.is(samlUrl, acs.url))) fields.push({ field: 'acsUrls', rule: 'rule.url' });
  if (sloUrl !== null && !v.is(samlUrl, sloUrl)) fields.push({ field: 'sloUrl', rule: 'rule.url' });
  const sloBinding = sloUrl === null ? null : (body.sloBinding ?? (body.sloUrl ? undefined : metadata?.sloBinding) ?? was?.sloBinding ?? 'HTTP-Redirect');
  // The server itself posts to a SOAP service: a public address unless the operator allows more.
  if (sloUrl !== null && sloBinding === 'SOAP' && !fields.some((f) => f.field === 'sloUrl')) await assertOutboundUri(ctx, 'sloUrl', sloUrl);
  if (entityId && entityId !== was?.entityId) {
    const taken = await ctx.db
      .selectFrom('samlServiceProviders')
      .select('appId')
      .where('entityId', '=', entityId)
      .where('appId', '!=', appId)
      .executeTakeFirst();
    if (taken) fields.push({ field: 'entityId', rule: 'rule.samlEntityIdTaken' });
  }
  // Encryption is the administrator's choice (a key in the metadata is no request for it), and
  // takes a certificate with an RSA key; one given as the field must have one, used or not yet.
  const encryptAssertions = body.encryptAssertions ?? was?.encryptAssertions === 1;
  const encryptingCert = encryptionCert === undefined ? (metadata?.encryptionCert ?? was?.encryptionCert ?? null) : encryptionCert;
  if (encryptionCert && !hasRsaKey(encryptionCert)) fields.push({ field: 'encryptionCert', rule: 'rule.encryptionCertRsa' });
  else if (encryptAssertions && !encryptingCert) fields.push({ field: 'encryptionCert', rule: 'rule.required' });
  else if (encryptAssertions && !hasRsaKey(encryptingCert!))
    fields.push({ field: encryptionCert === undefined && metadata?.encryptionCert ? metadataFieldOf(body) : 'encryptionCert', rule: 'rule.encryptionCertRsa' });
  const wantRequestsSigned = body.wantRequestsSigned ?? metadata?.wantRequestsSigned ?? was?.wantRequestsSigned === 1;
  const spCert = signingCert === undefined ? (metadata?.signingCert ?? was?.signingCert ?? null) : signingCert;
  if (wantRequestsSigned && !spCert) fields.push({ field: 'signingCert', rule: 'rule.required' });
  if (fields.length || !entityId || !acsUrls) throw fieldError(fields);
  const now = ctx.now();
  const row: SamlServiceProviderTable = {
    appId,
    entityId,
    acsUrls: JSON.stringify(acsUrls),
    sloUrl,
    sloBinding,
    nameIdFormat: body.nameIdFormat ?? metadata?.nameIdFormat ?? was?.nameIdFormat ?? 'email',
    signingCert: spCert,
    encryptionCert: encryptingCert,
    wantRequestsSigned: Number(wantRequestsSigned),
    signResponse: Number(body.signResponse ?? (was ? was.signResponse === 1 : true)),
    signAssertion: Number(body.signAssertion ?? metadata?.wantAssertionsSigned ?? (was ? was.signAssertion === 1 : true)),
    metadataUrl: body.metadataUrl === '' ? null : (body.metadataUrl ?? was?.metadataUrl ?? null),
    createdAt: was?.createdAt ?? now,
    updatedAt: now,
    assertionEncryption: body.assertionEncryption ?? was?.assertionEncryption ?? null,
    encryptAssertions: Number(encryptAssertions),
  };
  if (!row.signResponse && !row.signAssertion) throw fieldError([{ field: 'signAssertion', rule: 'rule.samlSigned' }]);
  await ctx.audit.change(async () => {
    // Under the app's lock of its provider, to the end of the change, whether one is stored is
    // asked again: a burst of first saves registers one and then replaces it (each inserted it,
    // and all but one answered 500 on PostgreSQL).
    await lockByName(ctx, `app ${appId} saml provider`);
    const { createdAt: _created, ...replacing } = row;
    // The entity ID checked above may be taken meanwhile by another app's save (its own lock): the
    // column's uniqueness refuses the second as the check would have (on PostgreSQL it answered 500).
    await unique(
      'entityId',
      async () => {
        if (await providerRow(ctx, appId)) await ctx.db.updateTable('samlServiceProviders').set(replacing).where('appId', '=', appId).execute();
        else await ctx.db.insertInto('samlServiceProviders').values(row).execute();
      },
      'rule.samlEntityIdTaken',
    );
    const { signingCert: _s, encryptionCert: _e, ...detail } = toSamlProvider(row);
    await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: appId }, ip, detail: { saml: detail } });
  });
  return { provider: toSamlProvider(row), idp: idpEndpoints(ctx) };
}

/** The app stops being a service provider (its SAML sessions and remembered consents end with it:
 *  a service provider registered on the app later is asked about afresh). */
export async function removeProvider(ctx: Ctx, actor: Actor, appId: string, ip: string) {
  await manageableApp(ctx, actor, appId);
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('samlServiceProviders').where('appId', '=', appId).executeTakeFirst(), 'SAML service provider');
    await ctx.db.deleteFrom('samlSessions').where('appId', '=', appId).execute();
    await ctx.db.deleteFrom('samlConsents').where('appId', '=', appId).execute();
    await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: appId }, ip, detail: { saml: null } });
  });
  return { provider: null, idp: idpEndpoints(ctx) };
}
