// The starting settings of a directory connection for Active Directory and for OpenLDAP: the
// filters and the attribute of each field (docs/ldap.md shows the same tables; a test compares them).
import type { LdapMapping, LdapPreset, LdapSettings } from './schemas/ldap';

export type LdapPresetSettings = Pick<LdapSettings, 'userFilter' | 'groupFilter' | 'mapping'>;

export const LDAP_PRESET_SETTINGS: Record<LdapPreset, LdapPresetSettings> = {
  activeDirectory: {
    userFilter: '(&(objectCategory=person)(objectClass=user)(!(isCriticalSystemObject=TRUE)))',
    groupFilter: '(objectClass=group)',
    mapping: {
      username: 'sAMAccountName',
      principalName: 'userPrincipalName',
      realName: 'displayName',
      email: 'mail',
      mobilePhone: 'mobile',
      externalId: 'objectGUID',
      memberOf: 'memberOf',
      accountControl: 'userAccountControl',
      groupMember: 'member',
    } satisfies LdapMapping,
  },
  openLdap: {
    userFilter: '(objectClass=inetOrgPerson)',
    groupFilter: '(objectClass=groupOfNames)',
    mapping: {
      username: 'uid',
      principalName: '',
      realName: 'cn',
      email: 'mail',
      mobilePhone: 'mobile',
      externalId: 'entryUUID',
      memberOf: '',
      accountControl: '',
      groupMember: 'member',
    } satisfies LdapMapping,
  },
};
