// The discovery endpoints (RFC 7644 §4): ServiceProviderConfig, ResourceTypes and Schemas, answered
// by scimmy from the resource types declared here. scimmy keeps them in module state (one
// declaration per process, whichever server instance comes first): the same for every instance.
import SCIMMY from 'scimmy';
import { MAX_COUNT } from './listing';
import { SCIM_BASE } from './base';

function declare(): void {
  if (SCIMMY.Resources.declared(SCIMMY.Resources.User)) return;
  // Entra ID sends (and PATCHes) the enterprise extension's attributes: declared so that they are
  // accepted; none of them is kept (docs/scim.md).
  SCIMMY.Resources.declare(SCIMMY.Resources.User.extend(SCIMMY.Schemas.EnterpriseUser, false)).basepath(SCIM_BASE);
  SCIMMY.Resources.declare(SCIMMY.Resources.Group).basepath(SCIM_BASE);
  SCIMMY.Resources.Schema.basepath(SCIM_BASE);
  SCIMMY.Resources.ResourceType.basepath(SCIM_BASE);
  SCIMMY.Resources.ServiceProviderConfig.basepath(SCIM_BASE);
  SCIMMY.Config.set({
    patch: true,
    filter: { supported: true, maxResults: MAX_COUNT },
    bulk: false,
    sort: false,
    etag: false,
    changePassword: false,
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A SCIM token created in the console (Operations → Provisioning (SCIM)), sent as Authorization: Bearer',
      },
    ],
  });
}
declare();

export const serviceProviderConfig = () => new SCIMMY.Resources.ServiceProviderConfig().read();
export const resourceTypes = (id?: string) => (id === undefined ? new SCIMMY.Resources.ResourceType() : new SCIMMY.Resources.ResourceType(id)).read();
export const schemas = (id?: string) => (id === undefined ? new SCIMMY.Resources.Schema() : new SCIMMY.Resources.Schema(id)).read();
