// Calls of server/routes/channels.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { idParams, okAnswer, pageQuery } from '../schemas/common';
import {
  channel,
  channelBody,
  channelList,
  channelOption,
  channelTestBody,
  channelUpdateBody,
  delivery,
  deliveryList,
  deliveryListQuery,
} from '../schemas/messaging';

/** GET /channels */
export const getChannels = { method: 'GET', path: '/channels', query: pageQuery, response: channelList } as const satisfies CallDeclaration;

/** GET /channels/options */
export const getChannelsOptions = { method: 'GET', path: '/channels/options', response: v.array(channelOption) } as const satisfies CallDeclaration;

/** POST /channels */
export const postChannels = { method: 'POST', path: '/channels', body: channelBody, response: channel } as const satisfies CallDeclaration;

/** PUT /channels/:id */
export const putChannelsById = {
  method: 'PUT',
  path: '/channels/:id',
  params: idParams,
  body: channelUpdateBody,
  response: channel,
} as const satisfies CallDeclaration;

/** DELETE /channels/:id */
export const deleteChannelsById = { method: 'DELETE', path: '/channels/:id', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** POST /channels/:id/test */
export const postChannelsTest = {
  method: 'POST',
  path: '/channels/:id/test',
  params: idParams,
  body: channelTestBody,
  response: delivery,
} as const satisfies CallDeclaration;

/** GET /channels/deliveries */
export const getChannelsDeliveries = {
  method: 'GET',
  path: '/channels/deliveries',
  query: deliveryListQuery,
  response: deliveryList,
} as const satisfies CallDeclaration;
