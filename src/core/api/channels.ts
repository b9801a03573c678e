// Message channels, their send test and the delivery log.
import { PAGING } from '../config';
import { request, requestList } from '../http';
import type { Channel, ChannelInput, ChannelOption, Delivery, DeliveryStatus } from '../schemas/messaging';
import type { PagedList } from '../types';
import { apiPath } from './path';

export function list(page: number = PAGING.page, size: number = PAGING.size): Promise<PagedList<Channel>> {
  return requestList<Channel>('/channels', { page, size });
}

/** Enabled channels to send a message through (for administrators with the operations permission). */
export function options(): Promise<ChannelOption[]> {
  return request<ChannelOption[]>('GET', '/channels/options');
}

/** Secrets left out of `config` (or sent as the mask) keep their stored values. */
export function create(channel: ChannelInput): Promise<Channel> {
  return request<Channel>('POST', '/channels', { body: channel, silent: true });
}

export function update(id: string, changes: Partial<ChannelInput> & { version: number }): Promise<Channel> {
  return request<Channel>('PUT', apiPath`/channels/${id}`, { body: changes, silent: true });
}

export function remove(id: string): Promise<null> {
  return request<null>('DELETE', apiPath`/channels/${id}`);
}

/** Sends a test now (to `address`: an email address or mobile number; none for robots and the inbox). */
export function sendTest(id: string, address?: string): Promise<Delivery> {
  return request<Delivery>('POST', apiPath`/channels/${id}/test`, { body: address ? { address } : {} });
}

export interface DeliveryQuery {
  page?: number;
  size?: number;
  channelId?: string;
  status?: DeliveryStatus;
}

export function deliveries(query: DeliveryQuery = {}): Promise<PagedList<Delivery>> {
  return requestList<Delivery>('/channels/deliveries', { page: PAGING.page, size: PAGING.size, ...query });
}
