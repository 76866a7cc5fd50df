/**
 * Every state of the session machine a reviewer can reach, each resolved from a value and a context
 * (no actor runs, no network): what the views would read from it.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { StateValue } from 'xstate';
import { encodePermissionsClaim, NO_PERMISSIONS_MESSAGE, NO_SCOPE_MESSAGE, checkClaims, type LocusClaims } from '../../core/claims';
import type { Me } from '../../core/schemas/me';
import {
  SIGN_IN_NOT_ACCEPTED_MESSAGE,
  sessionMachine,
  type SessionContext,
  type SessionEvent,
  type SessionTag,
} from '../../machines/session.machine';
import { sessionStatus } from '../../machines/session.status';

const TAGS: SessionTag[] = ['busy', 'authenticated', 'signingIn', 'refused', 'signingOut'];

const EVENTS: SessionEvent[] = [
  { type: 'token.expiring' },
  { type: 'api.unauthorized' },
  { type: 'licenses.accepted' },
  { type: 'session.signIn' },
  { type: 'session.retry' },
  { type: 'session.signOut' },
];

/** What a view can learn from one session snapshot. */
function SessionStateView({ value, context }: { value: StateValue; context: SessionContext }) {
  const snapshot = sessionMachine.resolveState({ value, context });
  const rows: Array<[string, string]> = [
    ['state', JSON.stringify(snapshot.value)],
    ['useSessionStatus()', sessionStatus(snapshot)],
    ['tags', TAGS.filter((t) => snapshot.hasTag(t)).join(', ') || '—'],
    ['accepts', EVENTS.filter((e) => snapshot.can(e)).map((e) => e.type).join(', ') || '—'],
    ['error', snapshot.context.error ?? '—'],
    ['user', snapshot.context.me ? `${snapshot.context.me.firstName} ${snapshot.context.me.lastName} (${snapshot.context.me.roleName})` : '—'],
    ['access token', snapshot.context.accessToken ? `present, expires ${new Date((snapshot.context.expiresAt ?? 0) * 1000).toISOString()}` : '—'],
    ['return to', snapshot.context.redirect ?? '—'],
  ];
  return (
    <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.25rem 1rem', fontFamily: 'system-ui', margin: '1rem' }}>
      {rows.map(([term, detail]) => (
        <div key={term} style={{ display: 'contents' }}>
          <dt style={{ fontWeight: 600 }}>{term}</dt>
          <dd style={{ margin: 0 }} role={term === 'error' && snapshot.hasTag('refused') ? 'alert' : undefined}>
            {detail}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const claims: LocusClaims = {
  sub: 'user-1',
  permissions: encodePermissionsClaim('Analyst', false, { Cases: ['Read'], Hits: ['Read', 'Publish'] }),
  ScopeLevel: 'Organization',
  organization: [ORG],
};
const me: Me = {
  id: '9b2f1c1e-8a43-4a59-9a49-6f3c1f0f5d11',
  email: 'ana@lab.example',
  firstName: 'Ana',
  lastName: 'Lyst',
  roleName: 'Analyst',
  isAdmin: false,
  scope: 'Organization',
  organizations: [{ id: ORG, name: 'North Lab' }],
  permissions: { Cases: ['Read'], Hits: ['Read', 'Publish'] },
  licensesAccepted: true,
};
const check = checkClaims(claims);

const empty: SessionContext = {
  location: 'app',
  redirect: `/${ORG}/cases?tab=open`,
  accessToken: null,
  expiresAt: null,
  scopes: [],
  claims: null,
  user: null,
  me: null,
  error: null,
  source: null,
};

const withToken: SessionContext = {
  ...empty,
  accessToken: 'eyJ…',
  expiresAt: 2_000_000_000,
  scopes: ['openid', 'email', 'profile', 'offline_access', 'access'],
  claims,
  source: 'stored',
};

const signedIn: SessionContext = { ...withToken, user: check.ok ? check.user : null, me };

const meta = {
  title: 'Machines/Session',
  component: SessionStateView,
  args: { context: empty },
} satisfies Meta<typeof SessionStateView>;
export default meta;

type Story = StoryObj<typeof meta>;

export const Checking: Story = { args: { value: 'checking' } };
export const CompletingSignIn: Story = { args: { value: 'completingSignIn', context: { ...empty, location: 'callback', redirect: undefined } } };
export const Redirecting: Story = { args: { value: 'redirecting' } };
export const LoadingPermissions: Story = { args: { value: 'loadingPermissions', context: { ...withToken, user: signedIn.user } } };
export const SignedIn: Story = { args: { value: { signedIn: 'idle' }, context: signedIn } };
export const Renewing: Story = { args: { value: { signedIn: { renewing: 'attempt' } }, context: signedIn } };
export const RenewRetryWait: Story = { args: { value: { signedIn: { renewing: 'retryWait' } }, context: signedIn } };
export const RenewRetry: Story = { args: { value: { signedIn: { renewing: 'retry' } }, context: signedIn } };
export const RefreshingPermissions: Story = { args: { value: { signedIn: 'refreshing' }, context: { ...signedIn, source: 'renewed' } } };
export const DeniedNoPermissions: Story = { args: { value: 'denied', context: { ...withToken, error: NO_PERMISSIONS_MESSAGE } } };
export const DeniedNoScope: Story = { args: { value: 'denied', context: { ...withToken, error: NO_SCOPE_MESSAGE } } };
export const FailedCallback: Story = {
  args: { value: 'failed', context: { ...empty, location: 'callback', redirect: undefined, error: 'State does not match' } },
};
export const FailedScopeNotGranted: Story = { args: { value: 'failed', context: { ...withToken, source: 'signIn', error: SIGN_IN_NOT_ACCEPTED_MESSAGE } } };
export const SigningOut: Story = { args: { value: 'signingOut' } };
export const FinishingSignOut: Story = { args: { value: 'finishingSignOut', context: { ...empty, location: 'loggedOut', redirect: undefined } } };
export const SignedOut: Story = { args: { value: 'signedOut', context: { ...empty, location: 'loggedOut', redirect: undefined } } };
export const InSilentRenewFrame: Story = { args: { value: 'inFrame', context: { ...empty, location: 'silentRenew', redirect: undefined } } };
