// Which email address of a person is verified in this product: the one a verification link was
// used for (server/services/email-verification.ts) or a code proved when the person set it
// (server/auth/contacts.ts), kept in their extraProp. An address set any other way (by an
// administrator, an import, SCIM, a directory) is not verified, nor one changed since. The OpenID
// provider answers it as the `email_verified` claim (server/oidc/provider.ts).

/** The person's extraProp (JSON text) with `address` marked verified at `at`. */
export function markEmailVerified(extraProp: string, address: string, at: number): string {
  return JSON.stringify({ ...(JSON.parse(extraProp) as Record<string, unknown>), emailVerified: address, emailVerifiedAt: at });
}

/** Whether the person's current address is the one verified here. */
export function isEmailVerified(person: { email: string | null; extraProp: string }): boolean {
  if (!person.email) return false;
  const { emailVerified } = JSON.parse(person.extraProp) as { emailVerified?: unknown };
  return emailVerified === person.email;
}
