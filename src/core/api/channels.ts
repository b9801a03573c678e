// Message channels, their send test and the delivery log.
import { PAGING } from '../config';
import * as calls from '../contract/channels';
import type { CallAnswer, CallInput } from '../contract/declare';
import type { Channel, ChannelOption, Delivery } from '../schemas/messaging';
import { call, callList, type CallBody } from './call';

export function list(page: number = PAGING.page, size: number = PAGING.size): Promise<CallAnswer<typeof calls.getChannels>> {
  return callList(calls.getChannels, { query: { page, size } });
}

/** Enabled channels to send a message through (for administrators with the operations permission). */
export function options(): Promise<ChannelOption[]> {
  return call(calls.getChannelsOptions);
}

/** Secrets left out of `config` (or sent as the mask) keep their stored values. */
export function create(channel: CallBody<typeof calls.postChannels>): Promise<Channel> {
  return call(calls.postChannels, { body: channel }, { silent: true });
}

export function update(id: string, changes: CallBody<typeof calls.putChannelsById>): Promise<Channel> {
  return call(calls.putChannelsById, { params: { id }, body: changes }, { silent: true });
}

export function remove(id: string): Promise<null> {
  return call(calls.deleteChannelsById, { params: { id } });
}

/** Sends a test now (to `address`: an email address or mobile number; none for robots and the inbox). */
export function sendTest(id: string, address?: string): Promise<Delivery> {
  return call(calls.postChannelsTest, { params: { id }, body: address ? { address } : {} });
}

export type DeliveryQuery = NonNullable<CallInput<typeof calls.getChannelsDeliveries>['query']>;

export function deliveries(query: DeliveryQuery = {}): Promise<CallAnswer<typeof calls.getChannelsDeliveries>> {
  return callList(calls.getChannelsDeliveries, { query: { page: PAGING.page, size: PAGING.size, ...query } });
}
