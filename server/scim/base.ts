// Where SCIM is served (server/app.ts registers server/scim/plugin.ts here): the base of every
// resource's location and of the tenant URL a new token is shown with.
export const SCIM_BASE = '/scim/v2';
