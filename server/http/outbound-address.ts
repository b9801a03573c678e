// Requests the server makes to addresses an administrator typed in (an app's back-channel logout
// URI, webhook endpoints): they must not reach this machine or the operator's private network
// (SSRF: the cloud metadata service at 169.254.169.254, a database on 127.0.0.1, an intranet page).
//
//  - checkOutboundUrl(url, options) resolves the host (every address it has) and refuses the URL
//    unless each address is public unicast: loopback, private, link-local, unique-local, CGNAT,
//    multicast, unspecified, reserved, and IPv6 forms embedding an IPv4 address (IPv4-mapped,
//    IPv4-compatible, NAT64, 6to4, Teredo) are refused. The operator's allow-list (`allow`:
//    IAM_OUTBOUND_ALLOW, host names and CIDR ranges, see docs/configuration.md) lets the private
//    targets it names through; `allowPrivate` (IAM_OUTBOUND_ALLOW_PRIVATE=1, deprecated) every
//    private and loopback one. Link-local addresses and the cloud metadata services (169.254.0.0/16,
//    fe80::/10, fd00:ec2::254) are refused whatever is listed.
//  - outboundFetch(url, init) checks the URL the same way, then connects to the addresses it
//    checked (no second name lookup the name's owner could answer differently: DNS rebinding),
//    with the Host header and TLS server name of the URL. It never follows a redirect (a 3xx is
//    the answer), stops after `timeoutMs` and reads at most `maxResponseBytes` of the answer.
//
// Both throw an OutboundAddressError (its `reason` says why) for a refused URL; outboundFetch
// throws other errors for network failures and timeouts.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type OutboundRefusal =
  /** Not an http(s) URL, or one carrying a user name or password. */
  | 'url'
  /** The host name has no address. */
  | 'unresolvable'
  /** The host is (or resolves to) an address that is not public. */
  | 'address';

export class OutboundAddressError extends Error {
  constructor(
    readonly reason: OutboundRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundAddressError';
  }
}

export interface OutboundOptions {
  /** Let every loopback and private address through (IAM_OUTBOUND_ALLOW_PRIVATE=1, deprecated). */
  allowPrivate?: boolean;
  /** The private targets the operator allows (IAM_OUTBOUND_ALLOW): host names, exact, and CIDR ranges. */
  allow?: readonly string[];
  /** Told the addresses a URL was checked for (and whether any of them is not public). */
  onChecked?: (target: CheckedTarget) => void;
  /** Resolves a host name to all its addresses (default: the system resolver, dns.lookup). */
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
}

/** A URL that passed the check, and the addresses a connection to it may use. */
export interface CheckedTarget {
  url: URL;
  addresses: LookupAddress[];
  /** One of the addresses is not public unicast (it passed by the operator's allow-list). */
  private: boolean;
}

/** Never a destination, whatever the operator allows: link-local holds the cloud metadata services. */
const NEVER = new Set(['unspecified', 'multicast', 'broadcast', 'linkLocal']);
/** AWS's IPv6 metadata service sits in unique-local space. */
const METADATA = [ipaddr.parseCIDR('fd00:ec2::254/128')];

/** An IAM_OUTBOUND_ALLOW entry that is an address range (a bare address is a range of one). */
function rangeOf(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
  if (ipaddr.isValid(entry)) {
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  }
  return undefined;
}

const within = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][]) =>
  ranges.some((range) => address.kind() === range[0].kind() && address.match(range));

/** Why the address may not be connected to, or undefined when it may; `listed`: the host name is on
 *  the operator's allow-list. */
function refusedRange(address: string, options: OutboundOptions, listed: boolean): string | undefined {
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 address it is.
  const parsed = ipaddr.process(address);
  let range: string = parsed.range();
  // ::/8 is reserved and holds the old IPv4-compatible form (::127.0.0.1), which ipaddr.js calls unicast.
  if (range === 'unicast' && parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts[0]! < 0x100) range = 'reserved';
  if (range === 'unicast') return undefined;
  if (NEVER.has(range) || within(parsed, METADATA)) return range === 'uniqueLocal' ? 'metadata' : range;
  const ranges = (options.allow ?? []).map(rangeOf).filter((range) => range !== undefined);
  if (options.allowPrivate || listed || within(parsed, ranges)) return undefined;
  return range;
}

/** Whether an IAM_OUTBOUND_ALLOW entry is understood: a host name, an address or a CIDR range. */
export const validAllowEntry = (entry: string) =>
  rangeOf(entry) !== undefined || /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i.test(entry);

const systemLookup = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/** Resolves the URL's host and refuses it unless every address may be connected to. */
export async function checkOutboundUrl(url: string | URL, options: OutboundOptions = {}): Promise<CheckedTarget> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundAddressError('url', 'Not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OutboundAddressError('url', 'Only http and https URLs are allowed');
  if (parsed.username || parsed.password) throw new OutboundAddressError('url', 'A URL with a user name or password is not allowed');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: LookupAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch {
      addresses = [];
    }
    if (!addresses.length) throw new OutboundAddressError('unresolvable', `${host} has no address`);
  }
  const listed = !isIP(host) && (options.allow ?? []).some((entry) => entry.toLowerCase() === host.toLowerCase());
  let notPublic = false;
  for (const { address } of addresses) {
    const range = refusedRange(address, options, listed);
    if (range) throw new OutboundAddressError('address', `${host} is not a public address (${address}: ${range})`);
    notPublic ||= refusedRange(address, {}, false) !== undefined;
  }
  const target = { url: parsed, addresses, private: notPublic };
  options.onChecked?.(target);
  return target;
}

export interface OutboundInit extends OutboundOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A form (sent as application/x-www-form-urlencoded unless a content-type is given), text or bytes. */
  body?: URLSearchParams | string | Uint8Array;
  /** The whole exchange, answer included, ends after this long (default 10 s). */
  timeoutMs?: number;
  /** At most this much of the answer's body is read; the rest is cut off (default 64 KiB). */
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
/** Statuses whose answer has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

/** Reads at most `limit` bytes of the body, then stops reading (the connection is not reused). */
function readBounded(response: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        response.destroy();
        resolve(Buffer.concat(chunks).subarray(0, limit));
      }
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
    response.on('close', () => resolve(Buffer.concat(chunks).subarray(0, limit)));
  });
}

function toHeaders(raw: IncomingMessage['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * One HTTP request to a checked public address (see the top of this file): answers a Response with
 * the status, headers and (bounded) body; a redirect is answered as it is, never followed.
 */
export async function outboundFetch(url: string | URL, init: OutboundInit = {}): Promise<Response> {
  const { url: target, addresses } = await checkOutboundUrl(url, init);
  const headers: Record<string, string> = { ...init.headers };
  const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
  let body: string | Uint8Array | undefined;
  if (init.body instanceof URLSearchParams) {
    body = init.body.toString();
    if (!has('content-type')) headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
  } else body = init.body;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const signals = [AbortSignal.timeout(init.timeoutMs ?? DEFAULT_TIMEOUT_MS), ...(init.signal ? [init.signal] : [])];
  const signal = AbortSignal.any(signals);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    const request = send(
      target,
      {
        method: init.method ?? 'GET',
        headers,
        signal,
        // A connection of its own: never a kept-alive socket opened for another check.
        agent: false,
        // The connection goes to the addresses checked above, not to a second answer of the resolver.
        lookup: (_hostname, options, callback) => {
          const allowed = addresses.filter(({ family }) => !options.family || family === options.family);
          if (!allowed.length) return callback(new OutboundAddressError('address', 'No checked address of that family'), '', 4);
          if (options.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, allowed);
          callback(null, allowed[0]!.address, allowed[0]!.family);
        },
      },
      (response) => {
        readBounded(response, init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES)
          .then((bytes) => {
            const status = response.statusCode ?? 0;
            if (status < 200 || status > 599) throw new Error(`Unexpected HTTP status ${status}`);
            resolve(
              new Response(NULL_BODY.has(status) ? null : new Uint8Array(bytes), {
                status,
                statusText: response.statusMessage,
                headers: toHeaders(response.headers),
              }),
            );
          })
          .catch(reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The operator's outbound settings (server/config.ts) as the options of a check. */
export const outboundPolicy = (config: { outboundAllowPrivate: boolean; outboundAllow: readonly string[] }): OutboundOptions => ({
  allowPrivate: config.outboundAllowPrivate,
  allow: config.outboundAllow,
});
