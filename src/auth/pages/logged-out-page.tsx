/** /authentication/logged-out, where the identity provider returns after ending the session. */
import { Link } from 'wouter';
import { AUTHENTICATION_PATH } from '../routes';
import { AuthFrame } from './auth-frame';

export function LoggedOutPage() {
  return (
    <AuthFrame title="You have signed out.">
      <p>
        <Link href={AUTHENTICATION_PATH} className="button button--primary">
          Sign in again
        </Link>
      </p>
    </AuthFrame>
  );
}
