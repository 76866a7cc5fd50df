/** Test-only credentials for the throwaway e2e database (never a real account). */
export const E2E_ADMIN = { email: 'e2e-admin@locus.test', password: 'e2e-demo-password-1' };
export const E2E_LOCKED_USER = { email: 'locked@locus.test', password: 'e2e-demo-password-2' };
/** A second administrator, so the administration suite never accepts the licence the sign-in suite expects to see. */
export const E2E_SECOND_ADMIN = { email: 'e2e-admin-2@locus.test', password: 'e2e-demo-password-3' };
