// Who may read GET /metrics: a client presenting the configured bearer token (IAM_METRICS_TOKEN),
// or one whose address is in IAM_METRICS_ALLOW. The address is the one Fastify decided (request.ip):
// an X-Forwarded-For counts only from a configured proxy (IAM_TRUST_PROXY), so a forged one opens
// nothing. Unset: loopback only outside production, nobody in production (docs/security.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';

/** The networks behind proxy-addr's names, which IAM_METRICS_ALLOW accepts as IAM_TRUST_PROXY does. */
const NAMED: Record<string, [string, number][]> = {
  loopback: [
    ['127.0.0.0', 8],
    ['::1', 128],
  ],
  linklocal: [
    ['169.254.0.0', 16],
    ['fe80::', 10],
  ],
  uniquelocal: [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['fc00::', 7],
  ],
};

function allowList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    for (const [network, bits] of NAMED[entry] ?? [[address!, prefix === undefined ? undefined : Number(prefix)] as const]) {
      const family = isIPv4(network) ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(network, family);
      else list.addSubnet(network, bits, family);
    }
  }
  return list;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Answers whether `request` may read the metrics. */
export function metricsAccess(config: ServerConfig['metrics']): (request: FastifyRequest) => boolean {
  const allowed = allowList(config.allow);
  const token = config.token === undefined ? undefined : digest(config.token);
  return (request) => {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (token && bearer !== undefined && timingSafeEqual(digest(bearer), token)) return true;
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
    const ip = request.ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    return allowed.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6');
  };
}
