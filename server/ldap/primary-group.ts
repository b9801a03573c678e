// Active Directory's primary group: every account is a member of one group (Domain Users, unless
// changed) that neither the group's `member` nor the account's `memberOf` lists. The account names
// it only by `primaryGroupID`, the group's relative id (RID): the group is the one whose `objectSid`
// is the account's own domain SID (its `objectSid` without the last part) followed by that RID.
// Without this, a group mapped to a role such as "Domain Users" gives the role to nobody.

/** The attributes that tell an entry's primary group (objectSid is binary: read as a Buffer). */
export const PRIMARY_GROUP_ATTRIBUTES = ['objectSid', 'primaryGroupID'] as const;

/**
 * The SID (as hex of its binary form) of the primary group of an account with the SID `objectSid`
 * (hex) and `primaryGroupID`, or '' when either is missing or malformed. A binary SID is a revision
 * byte, a count of sub-authorities, a 6-byte authority and the sub-authorities (4 bytes each, little
 * endian); the last one is the RID.
 */
export function primaryGroupSid(objectSid: string, primaryGroupId: string): string {
  const sid = Buffer.from(objectSid, 'hex');
  const rid = Number(primaryGroupId);
  if (!/^\d{1,10}$/.test(primaryGroupId.trim()) || rid > 0xffff_ffff || sid.length < 12 || sid.length !== 8 + 4 * sid[1]!) return '';
  const group = Buffer.from(sid);
  group.writeUInt32LE(rid, group.length - 4);
  return group.toString('hex');
}
