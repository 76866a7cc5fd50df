/** What the API needs from a verified access token, whichever provider issued it. */
export interface VerifiedToken {
  subject: string;
  email?: string;
  issuedAt: Date;
  scopes: string[];
}

/** Verifies a bearer access token (signature, issuer, audience, expiry); throws Unauthorized when invalid. */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
}
