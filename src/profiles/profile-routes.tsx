import { useMemo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { isGuid } from '../../core/guid';
import type { ProfileWithMarkers } from '../../core/schemas/profiles';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { LoadState } from './load-state';
import type { ProfileTab } from './profile-view';
import { PROFILE_TYPES, profileTypeByKey, profileTypeOfKind } from './profile-types';
import { profilesApi, type ProfileCalls } from './profiles-api';
import { ProfileForm } from './profile-form';
import { useLoaded, type Loaded } from './use-loaded';

interface ProfileRouteProps {
  orgId: string;
  caseId: string;
  sampleid: string;
  /** The route's title: the heading until the profile is read. */
  title: string;
}

type RouteProfile = Loaded<ProfileWithMarkers> & { status: 'loaded'; reload(): void; replace(profile: ProfileWithMarkers): void };

type ProfileChildren = (loaded: RouteProfile, calls: ProfileCalls) => ReactNode;

function ProfilePage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {children}
    </section>
  );
}

/** Reads the profile a route names and draws `children` with it; while it loads or fails, the page says so. */
function WithRouteProfile({ sampleid, title, children }: { sampleid: string; title: string; children: ProfileChildren }) {
  // `new` or a profile type names no stored profile; asking the server would only be refused.
  if (!isGuid(sampleid)) {
    return (
      <ProfilePage title={title}>
        <p className="notice notice--negative" role="alert">
          There is no profile “{sampleid}”.
        </p>
      </ProfilePage>
    );
  }
  return (
    <StoredProfile sampleid={sampleid} title={title}>
      {children}
    </StoredProfile>
  );
}

function StoredProfile({ sampleid, title, children }: { sampleid: string; title: string; children: ProfileChildren }) {
  const api = useApi();
  const calls = useMemo(() => profilesApi(api), [api]);
  const loaded = useLoaded(sampleid, () => calls.get(sampleid));
  if (loaded.status === 'loaded') return <>{children(loaded, calls)}</>;
  return (
    <ProfilePage title={title}>
      <LoadState loaded={loaded} missing="This profile no longer exists.">
        {() => null}
      </LoadState>
    </ProfilePage>
  );
}

/** `…/profiles/{sampleid}` and its tabs: the view screen of the profile's type (spec 2.8). */
export function ProfileViewRoute({ orgId, sampleid, title, tab }: ProfileRouteProps & { tab: ProfileTab }) {
  const principal = usePrincipal();
  return (
    <WithRouteProfile sampleid={sampleid} title={title}>
      {(loaded, calls) => {
        const View = profileTypeOfKind(loaded.value.kind).view;
        return <View orgId={orgId} profile={loaded.value} tab={tab} isAdmin={principal.isAdmin} calls={calls} onChange={loaded.replace} />;
      }}
    </WithRouteProfile>
  );
}

/** `…/profiles/{sampleid}/edit`: the form of the profile's type; `new` adds one by hand, of either kind. */
export function ProfileEditRoute({ orgId, caseId, sampleid, title }: ProfileRouteProps) {
  if (!isGuid(sampleid)) return <ProfileForm orgId={orgId} caseId={caseId} sampleid={sampleid} />;
  return (
    <WithRouteProfile sampleid={sampleid} title={title}>
      {({ value }) => {
        const Form = profileTypeOfKind(value.kind).form;
        return <Form orgId={orgId} caseId={caseId} sampleid={sampleid} profile={value} kind={value.kind} />;
      }}
    </WithRouteProfile>
  );
}

/** `…/profiles/{sampleid}/upload`: the import screen of the profile type `sampleid` names; none → Not found (spec 8.2). */
export function ProfileUploadRoute({ orgId, caseId, sampleid, title }: ProfileRouteProps) {
  const principal = usePrincipal();
  const type = profileTypeByKey(sampleid);
  if (!type) {
    return (
      <section className="page" aria-labelledby="page-title">
        <h1 id="page-title">{title}</h1>
        <div className="notice notice--negative" role="alert">
          <p>Not found</p>
          <p>There is no profile type “{sampleid}” to upload.</p>
        </div>
        <p>Upload one of these:</p>
        <ul>
          {PROFILE_TYPES.map((t) => (
            <li key={t.key}>
              <Link href={routes.ProfileUpload.href({ orgId, caseId, sampleid: t.key })}>{t.label} profiles</Link>
            </li>
          ))}
        </ul>
      </section>
    );
  }
  const Import = type.import;
  return <Import orgId={orgId} caseId={caseId} type={type} isAdmin={principal.isAdmin} />;
}
