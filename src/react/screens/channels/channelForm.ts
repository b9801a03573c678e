// The channel form's values and rules: the shared channel schema with the settings of the chosen
// service type; when editing, a stored secret may stay empty (it is kept). An in-site channel has
// no vendor to name (the console delivers it itself): the form asks none and sends SITE_VENDOR.
import * as v from 'valibot';
import { MessageServiceType } from '../../../core/enums';
import { channelBody, channelConfigSchema, channelFields, SECRET_MASK, type Channel, type ChannelInput } from '../../../core/schemas/messaging';

export interface ChannelFormValues {
  name: string;
  serviceType: MessageServiceType;
  vendor: string;
  enabled: boolean;
  config: Record<string, string>;
}

/** The vendor of an in-site channel: the console itself. */
const SITE_VENDOR = 'site';

/** Whether the form asks for a vendor (every service type but in-site messages). */
export const hasVendor = (type: MessageServiceType) => type !== MessageServiceType.SITE_MESSAGE;

/** Secrets the channel has stored (answered as the mask): the form shows them empty. */
export const storedSecrets = (channel: Channel | undefined) =>
  new Set(
    Object.entries(channel?.config ?? {})
      .filter(([, value]) => value === SECRET_MASK)
      .map(([name]) => name),
  );

export function formValues(channel: Channel | undefined, type: MessageServiceType): ChannelFormValues {
  const config = Object.fromEntries(
    channelFields[type].map((field) => {
      const stored = channel?.serviceType === type ? channel.config[field.name] : undefined;
      return [field.name, stored === undefined || stored === SECRET_MASK ? (field.options?.[0] ?? '') : stored];
    }),
  );
  return { name: channel?.name ?? '', serviceType: type, vendor: channel?.vendor ?? '', enabled: channel?.enabled ?? true, config };
}

/** Typed as the form's values: the settings' entries are built at run time from channelFields. */
export function formSchema(type: MessageServiceType, kept: Set<string>): v.GenericSchema<ChannelFormValues> {
  const settings = channelConfigSchema(type);
  // A secret that is stored may be left empty: the server keeps it.
  const entries = Object.fromEntries(
    Object.entries(settings.entries).map(([name, rule]) => [name, kept.has(name) ? v.optional(v.union([v.literal(''), rule])) : rule]),
  );
  const vendor = hasVendor(type) ? channelBody.entries.vendor : v.string();
  return v.object({
    ...channelBody.entries,
    vendor,
    enabled: v.boolean(),
    config: v.object(entries, 'rule.required'),
  }) as unknown as v.GenericSchema<ChannelFormValues>;
}

/** What is sent: empty settings left out (a stored secret left empty is kept by the server). */
export function toInput(values: ChannelFormValues): ChannelInput {
  return {
    ...values,
    vendor: hasVendor(values.serviceType) ? values.vendor : SITE_VENDOR,
    config: Object.fromEntries(Object.entries(values.config).filter(([, value]) => value !== '')),
  };
}
