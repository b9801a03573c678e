// Reading and writing SAML XML. Every incoming document is parsed here: a document type
// declaration (and with it every entity, internal or external: XXE, "billion laughs") is refused
// before the parser sees it, parse errors are refused rather than repaired, and the size is bounded.
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
} as const;

export const BINDINGS = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
  soap: 'urn:oasis:names:tc:SAML:2.0:bindings:SOAP',
} as const;

/** The largest SAML message (decoded XML) or SP metadata document read. */
export const MAX_XML_BYTES = 64 * 1024;

/** A message or document that cannot be accepted; `status` is the SAML second-level status to answer. */
export class SamlError extends Error {
  constructor(
    message: string,
    readonly status: 'Requester' | 'Responder' | 'RequestDenied' | 'VersionMismatch' = 'Requester',
  ) {
    super(message);
  }
}

/** Parses untrusted XML: no DOCTYPE (so no entities), no processing instruction but the XML
 *  declaration, nothing the parser had to repair. */
export function parseXml(text: string): Document {
  if (Buffer.byteLength(text) > MAX_XML_BYTES) throw new SamlError('The message is too large');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new SamlError('A document type declaration is not accepted');
  if (/<\?(?!xml[\s?])/i.test(text.replace(/^\uFEFF/, ''))) throw new SamlError('A processing instruction is not accepted');
  const fail = (message: string) => {
    void message;
    throw new SamlError('The XML cannot be read');
  };
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: fail, fatalError: fail } }).parseFromString(text, 'text/xml');
  if (!doc?.documentElement) throw new SamlError('The XML has no root element');
  return doc;
}

export const serialize = (node: Node) => new XMLSerializer().serializeToString(node);

/** The element's children in namespace `ns` named `name`. */
export const childrenOf = (parent: Element, ns: string, name: string): Element[] =>
  Array.from(parent.childNodes as unknown as ArrayLike<Node>).filter(
    (node): node is Element => node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === name,
  );

export const childOf = (parent: Element, ns: string, name: string): Element | undefined => childrenOf(parent, ns, name)[0];

/** The element's text; a comment or any other child but text is refused (a comment inside a NameID
 *  or Issuer is how values are cut short at a careless reader). */
export function textOf(element: Element | undefined): string | undefined {
  if (!element) return undefined;
  const parts = Array.from(element.childNodes as unknown as ArrayLike<Node>);
  if (parts.some((node) => node.nodeType !== 3 && node.nodeType !== 4)) throw new SamlError('A SAML value may hold text only (no comment or element)');
  return parts
    .map((node) => node.nodeValue ?? '')
    .join('')
    .trim();
}

/** A document to write, built through the DOM so every value is escaped. */
export class XmlWriter {
  readonly doc: Document;
  constructor(ns: string, root: string, attributes: Record<string, string | undefined> = {}) {
    this.doc = new DOMParser().parseFromString(`<${root} xmlns:${root.split(':')[0]}="${ns}"/>`, 'text/xml');
    this.set(this.doc.documentElement, attributes);
  }

  get root(): Element {
    return this.doc.documentElement;
  }

  set(element: Element, attributes: Record<string, string | undefined>): Element {
    for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
    return element;
  }

  add(parent: Element, ns: string, name: string, attributes: Record<string, string | undefined> = {}, text?: string): Element {
    const element = this.doc.createElementNS(ns, name);
    this.set(element, attributes);
    if (text !== undefined) element.appendChild(this.doc.createTextNode(text));
    parent.appendChild(element);
    return element;
  }

  toString(): string {
    return serialize(this.doc);
  }
}
