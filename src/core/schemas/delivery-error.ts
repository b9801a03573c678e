// Why a message or a webhook post failed, as a code the console translates (admin:deliveryError.*),
// with the raw detail beside it when there is one (a network code, an HTTP status, a vendor's or a
// mail server's answer). Rows from before the codes carry their reason in English words as the detail.
import * as v from 'valibot';

export const DeliveryErrorCode = {
  ChannelGone: 'channelGone',
  ChannelDisabled: 'channelDisabled',
  NoChannel: 'noChannel',
  NoRecipient: 'noRecipient',
  NoMobile: 'noMobile',
  NoEmail: 'noEmail',
  RobotRefused: 'robotRefused',
  MailRefused: 'mailRefused',
  AddressRefused: 'addressRefused',
  Timeout: 'timeout',
  Unreachable: 'unreachable',
  HttpStatus: 'httpStatus',
  EndpointDisabled: 'endpointDisabled',
  Failed: 'failed',
} as const;
export type DeliveryErrorCode = (typeof DeliveryErrorCode)[keyof typeof DeliveryErrorCode];

/** The code of a failure; null on success and on rows from before the codes. */
export const deliveryErrorCode = v.nullable(v.picklist(Object.values(DeliveryErrorCode)));
