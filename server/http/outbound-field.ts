// A URL the server will later call (an app's back-channel logout URI, a webhook endpoint) is checked
// when it is saved, so the administrator learns at once that it points to a refused address
// (http/outbound-address.ts; it is checked again at every call).
import type { Ctx } from '../context';
import { checkOutboundUrl, OutboundAddressError, outboundPolicy } from './outbound-address';
import { fieldError } from './errors';

/** Answers 400 naming the field (`rule.outboundUrl`) when the URL may not be called. */
export async function assertOutboundUri(ctx: Ctx, field: string, url: string): Promise<void> {
  try {
    await checkOutboundUrl(url, outboundPolicy(ctx.config));
  } catch (error) {
    if (error instanceof OutboundAddressError) throw fieldError([{ field, rule: 'rule.outboundUrl' }]);
    throw error;
  }
}
