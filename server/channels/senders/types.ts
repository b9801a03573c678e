// What a sender gets and how it fails: each service type has one sender function.
import type { OutboundOptions } from '../../http/outbound-address';
import type { DeliveryErrorCode } from '../../../src/core/schemas/delivery-error';

/** A message on its way out. */
interface Outgoing {
  title: string;
  content: string;
  /** Email address or mobile number (SMS; a robot's @mention); null for a robot without one. */
  address: string | null;
  /** SMS template parameters beyond title and content (e.g. a code). */
  params: Record<string, string>;
}

/** A channel's settings (validated by the core's channelConfigSchema of its service type). */
export type ChannelSettings = Record<string, string | undefined>;

/** `outbound`: how HTTP senders may call the channel's URL (the operator's choice of private addresses). */
export type Sender = (settings: ChannelSettings, message: Outgoing, outbound: OutboundOptions) => Promise<void>;

/** A failed delivery: its code and the raw detail for the delivery log (no secret, no webhook URL). */
export class DeliveryError extends Error {
  constructor(
    readonly code: DeliveryErrorCode,
    readonly detail: string | null = null,
  ) {
    super(detail ? `${code}: ${detail}` : code);
  }
}
