// The protocol parameters of an HTTP-Redirect query or an HTTP-POST form (SAML bindings §3.4, §3.5),
// read once from the raw `key=value` pairs. Each parameter keeps its raw octets next to its decoded
// value: the HTTP-Redirect signature covers the octets as sent (§3.4.4.1), and the message checked
// must be the very one that is read. A key counts by its decoded name (`SAML%52equest` is
// `SAMLRequest`), and a parameter given twice under any spelling refuses the whole request: else
// the signature could be checked over one copy while another is read.
import { ApiError } from '../http/errors';

const PROTOCOL_PARAMS = ['SAMLRequest', 'SAMLResponse', 'RelayState', 'SigAlg', 'Signature'] as const;
type ProtocolParam = (typeof PROTOCOL_PARAMS)[number];

/** A parameter: its value decoded, and its `key=value` as received (what a signature covers). */
interface QueryParam {
  value: string;
  raw: string;
}

export type ProtocolParams = Partial<Record<ProtocolParam, QueryParam>>;

/** application/x-www-form-urlencoded decoding; bad percent-encoding is the sender's error (400). */
function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new ApiError(400, 'The SAML parameters are not correctly URL-encoded');
  }
}

const isProtocolParam = (name: string): name is ProtocolParam => (PROTOCOL_PARAMS as readonly string[]).includes(name);

export function protocolParams(rawQuery: string): ProtocolParams {
  const params: ProtocolParams = {};
  for (const raw of rawQuery.split('&')) {
    if (!raw) continue;
    const equals = raw.indexOf('=');
    const name = formDecode(equals === -1 ? raw : raw.slice(0, equals));
    if (!isProtocolParam(name)) continue;
    if (params[name]) throw new ApiError(400, 'A SAML parameter is given more than once');
    params[name] = { value: formDecode(equals === -1 ? '' : raw.slice(equals + 1)), raw };
  }
  return params;
}
