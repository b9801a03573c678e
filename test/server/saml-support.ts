// A SAML service provider for the server's tests: @node-saml/node-saml, a library the server does
// not use (it is built on xml-crypto and @xmldom/xmldom directly), registered through the console's
// API with the SP metadata node-saml generates, and a signed-in browser going through the sign-in.
import assert from 'node:assert/strict';
import { sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { SAML, generateServiceProviderMetadata, type SamlConfig } from '@node-saml/node-saml';
import { SignedXml } from 'xml-crypto';
import { ok, type Client, type TestServer } from './harness';
import { createKey } from '../../server/saml/keys';

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

/** The form of an HTTP-POST binding page: where it posts and its fields. */
export function postedForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
  assert.ok(action, `not a post page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescapeHtml(name!)] = unescapeHtml(value!);
  return { action: unescapeHtml(action), fields };
}

/** The RSA signature algorithms by their hash, as SigAlg and an XML SignatureMethod name them. */
export const RSA_SIGNATURES = {
  sha1: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  sha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha384: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  sha512: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
} as const;
export type RsaHash = keyof typeof RSA_SIGNATURES;

/** An HTTP-Redirect query carrying `xml` as `kind`, signed (bindings §3.4.4.1, RSA with `hash`)
 *  with `privateKey` over its encoded parameters. */
export function signedRedirectQuery(
  kind: 'SAMLRequest' | 'SAMLResponse',
  xml: string,
  privateKey: string,
  relayState?: string,
  hash: RsaHash = 'sha256',
): string {
  const query = [
    `${kind}=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`,
    ...(relayState ? [`RelayState=${encodeURIComponent(relayState)}`] : []),
    `SigAlg=${encodeURIComponent(RSA_SIGNATURES[hash])}`,
  ].join('&');
  return `${query}&Signature=${encodeURIComponent(sign(hash, Buffer.from(query), privateKey).toString('base64'))}`;
}

/** `xml` (a message whose root has an ID) with an enveloped signature over its root, RSA with
 *  `hash` (xml-crypto, given RSA-SHA384, which it does not know, by node:crypto), after its Issuer.
 *  Its digest is SHA-1 with RSA-SHA1 (as pysaml2 and Lasso sign by default), else SHA-256. */
export function signedXmlMessage(xml: string, privateKey: string, hash: RsaHash): string {
  const id = /\bID="([^"]+)"/.exec(xml)![1]!;
  const signer = new SignedXml({ privateKey, signatureAlgorithm: RSA_SIGNATURES[hash], canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' });
  signer.SignatureAlgorithms[RSA_SIGNATURES.sha384] = class {
    getAlgorithmName = () => RSA_SIGNATURES.sha384;
    getSignature = (signedInfo: string, key: string) => sign('sha384', Buffer.from(signedInfo), key).toString('base64');
    verifySignature = () => false;
  };
  signer.addReference({
    xpath: `//*[@ID='${id}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: hash === 'sha1' ? 'http://www.w3.org/2000/09/xmldsig#sha1' : 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, { location: { reference: `//*[@ID='${id}']/*[local-name()='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/** The IdP's published signing certificates, from its metadata. */
export async function idpCertificates(server: TestServer): Promise<string[]> {
  const xml = await (await fetch(`${server.base}/api/saml/metadata`)).text();
  return [...xml.matchAll(/<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/g)].map((match) => match[1]!);
}

export interface SpOptions {
  /** The SP signs its AuthnRequests and LogoutRequests (and says so in its metadata). */
  signRequests?: boolean;
  binding?: 'HTTP-Redirect' | 'HTTP-POST';
  acsUrl?: string;
  nameIdFormat?: 'email' | 'persistent' | 'unspecified';
  /** The SP's metadata also names its key for encryption (a KeyDescriptor use="encryption"). */
  encryptionKeyInMetadata?: boolean;
  saml?: Partial<SamlConfig>;
}

/** An app registered as a SAML service provider, with node-saml as its SP. */
export class ServiceProvider {
  private constructor(
    readonly server: TestServer,
    readonly appId: string,
    readonly entityId: string,
    readonly acsUrl: string,
    readonly sp: SAML,
    readonly key: { privateKey: string; certificate: string },
  ) {}

  static async register(server: TestServer, admin: Client, name: string, options: SpOptions = {}): Promise<ServiceProvider> {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name, entrypoint: 'http://127.0.0.1:9/', callbackUrl: 'http://127.0.0.1:9/callback' }));
    const entityId = `https://sp.example.test/${encodeURIComponent(name)}`;
    const acsUrl = options.acsUrl ?? `http://127.0.0.1:9/${encodeURIComponent(name)}/acs`;
    const key = await createKey(`${name} SP`, Date.now());
    const metadata = generateServiceProviderMetadata({
      issuer: entityId,
      callbackUrl: acsUrl,
      logoutCallbackUrl: `http://127.0.0.1:9/${encodeURIComponent(name)}/slo`,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      wantAssertionsSigned: true,
      publicCerts: key.certificate,
      ...(options.signRequests ? { privateKey: key.privateKey, signatureAlgorithm: 'sha256' as const } : {}),
      ...(options.encryptionKeyInMetadata ? { decryptionPvk: key.privateKey, decryptionCert: key.certificate } : {}),
    });
    await ok(
      admin.put(`/api/apps/${app.id}/saml-provider`, {
        metadataXml: metadata,
        wantRequestsSigned: Boolean(options.signRequests),
        ...(options.nameIdFormat ? { nameIdFormat: options.nameIdFormat } : {}),
      }),
    );
    const sp = ServiceProvider.library(server, entityId, acsUrl, await idpCertificates(server), key, options);
    return new ServiceProvider(server, app.id, entityId, acsUrl, sp, key);
  }

  static library(server: TestServer, entityId: string, acsUrl: string, idpCert: string[], key: { privateKey: string }, options: SpOptions = {}): SAML {
    return new SAML({
      issuer: entityId,
      callbackUrl: acsUrl,
      entryPoint: `${server.base}/api/saml/sso`,
      logoutUrl: `${server.base}/api/saml/slo`,
      idpIssuer: `${server.base}/api/saml/metadata`,
      idpCert,
      audience: entityId,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: true,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      disableRequestedAuthnContext: true,
      validateInResponseTo: 'always' as never,
      authnRequestBinding: options.binding ?? 'HTTP-Redirect',
      ...(options.signRequests ? { privateKey: key.privateKey, signatureAlgorithm: 'sha256' as const } : {}),
      ...options.saml,
    });
  }

  /** SP-initiated: the browser carries the SP's AuthnRequest to the IdP (either binding); answers
   *  the IdP's first answer. */
  async sendAuthnRequest(browser: Client, relayState = 'relay-1'): Promise<Response> {
    if ((this.sp.options.authnRequestBinding ?? 'HTTP-Redirect') === 'HTTP-POST') {
      const message = (await this.sp.getAuthorizeMessageAsync(relayState, undefined, {})) as Record<string, string>;
      return browser.raw('POST', '/api/saml/sso', new URLSearchParams(message), { origin: 'http://127.0.0.1:9' });
    }
    const url = new URL(await this.sp.getAuthorizeUrlAsync(relayState, undefined, {}));
    return browser.raw('GET', url.pathname + url.search);
  }
}

/** The signed-in browser on the SAML sign-in page: allows (or denies) and follows to the page that
 *  posts to the app; answers that page's form. */
export async function consentAndAnswer(browser: Client, location: string, allow = true) {
  assert.match(location, /^\/saml\/authorize\?request=/);
  const id = new URL(location, 'http://x').searchParams.get('request')!;
  await ok(browser.get(`/api/saml/requests/${id}`));
  const next = await ok(browser.post<{ redirectURL: string }>(`/api/saml/requests/${id}`, { allow }));
  const page = await browser.raw('GET', next.redirectURL);
  assert.equal(page.status, 200);
  return { id, page, form: postedForm(await page.text()) };
}
