/** What the API needs from a verified access token, whichever provider issued it. */
export interface VerifiedToken {
  subject: string;
  email?: string;
  issuedAt: Date;
  scopes: string[];
  /** The embedded provider's grant the token was issued under (claim grant_id); signing out deletes it. */
  grantId?: string;
  /** The OAuth client the token was issued to (claim client_id, else azp); names a service client (issue 32). */
  clientId?: string;
}

/** Verifies a bearer access token (signature, issuer, audience, expiry); throws Unauthorized when invalid. */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
}
