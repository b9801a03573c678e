// Where webhook posts may go: server/http/outbound-address.ts decides, at save and at send time,
// with the operator's choice about private addresses (IAM_OUTBOUND_ALLOW_PRIVATE).
import type { Ctx } from '../context';
import { checkOutboundUrl, OutboundAddressError, type OutboundOptions } from '../http/outbound-address';
import { fieldError } from '../http/errors';

export const outboundOptions = (_ctx: Ctx): OutboundOptions => ({ allowPrivate: /^(1|true|yes|on)$/i.test(process.env.IAM_OUTBOUND_ALLOW_PRIVATE ?? '') });

/** Refuses (400 on `url`) an endpoint the server may not post to. */
export async function assertReachableUrl(ctx: Ctx, url: string): Promise<void> {
  try {
    await checkOutboundUrl(url, outboundOptions(ctx));
  } catch (error) {
    if (error instanceof OutboundAddressError) throw fieldError([{ field: 'url', rule: error.reason === 'url' ? 'rule.url' : 'rule.outboundAddress' }]);
    throw error;
  }
}
