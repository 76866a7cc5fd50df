import type { Entity, Verb } from '../../../core/permissions';
import type { Me } from '../../../core/schemas/me';
import type { Profile, ProfileWithMarkers } from '../../../core/schemas/profiles';
import type { Clock } from '../../../server/clock';
import { caseTypes, chemistries, chemistryMarkers, laboratories, markers, sampleSources } from '../../../server/db/schema';
import { SEED_CHEMISTRIES } from '../../../server/db/seed/reference/kits';
import { SEED_MARKERS } from '../../../server/db/seed/reference/markers';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

/** The roles the profile screens are tried with (spec 6: Profiles Read, Add, Edit, Delete, Reset, ViewAudit). */
const ROLES = {
  admin: null,
  analyst: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit', 'Delete', 'ViewAudit'], Markers: ['Read'] },
  reviewer: { Cases: ['Read'], Profiles: ['Read', 'Edit', 'Reset'], Markers: ['Read'] },
  reader: { Cases: ['Read'], Profiles: ['Read'], Markers: ['Read'] },
} satisfies Record<string, Partial<Record<Entity, Verb[]>> | null>;
export type Who = keyof typeof ROLES;

export interface ProfileWorld {
  t: TestApp;
  orgId: string;
  otherOrgId: string;
  caseTypeId: string;
  caseId: string;
  otherCaseId: string;
  globalFiler: string;
  laboratoryId: string;
  markerIds: Record<string, string>;
  tokens: Record<Who, string>;
}

/**
 * A fresh server with the seed markers, two kits (GlobalFiler, Yfiler Plus), a laboratory, two
 * organizations with a case each, and a user per role in the first organization (the admin: scope All).
 */
export async function createProfileWorld(opts: { clock?: Clock } = {}): Promise<ProfileWorld> {
  const t = await createTestApp(opts);
  const db = t.database.db;
  const markerRows = await db
    .insert(markers)
    .values(SEED_MARKERS.map((m) => ({ name: m.name, kind: m.kind, aliases: [...m.aliases], multiCopy: m.multiCopy ?? false })))
    .returning({ id: markers.id, name: markers.name });
  const markerIds = Object.fromEntries(markerRows.map((m) => [m.name, m.id]));
  const kitIds: Record<string, string> = {};
  for (const kit of SEED_CHEMISTRIES.filter((k) => k.name === 'GlobalFiler' || k.name === 'Yfiler Plus')) {
    const [chemistry] = await db.insert(chemistries).values({ name: kit.name, kind: kit.kind }).returning();
    await db.insert(chemistryMarkers).values(kit.markers.map((name, position) => ({ chemistryId: chemistry!.id, markerId: markerIds[name]!, position })));
    kitIds[kit.name] = chemistry!.id;
  }
  const [caseType] = await db.insert(caseTypes).values({ name: 'Burglary' }).returning();
  const [laboratory] = await db.insert(laboratories).values({ name: 'Oslo DNA Lab' }).returning();
  await db.insert(sampleSources).values({ name: 'Swab' });
  const orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const otherOrgId = (await createOrganization(db, 'Bergen Lab')).id;
  const tokens = {} as Record<Who, string>;
  for (const [who, grants] of Object.entries(ROLES) as [Who, (typeof ROLES)[Who]][]) {
    const group = await createAccessGroup(db, grants ? { grants } : { isAdmin: true });
    const user = await createUser(db, { scope: grants ? 'Organization' : 'All', accessGroupId: group.id, organizationIds: [orgId] });
    tokens[who] = t.verifier.issue(user.id);
  }
  const world = { t, orgId, otherOrgId, caseTypeId: caseType!.id, caseId: '', otherCaseId: '', globalFiler: kitIds.GlobalFiler!, laboratoryId: laboratory!.id, markerIds, tokens };
  world.caseId = await addCase(world, '2026-0100');
  world.otherCaseId = await addCase(world, '2026-0200', otherOrgId);
  return world;
}

/** A case of `organizationId` (the first organization by default), added as the admin. */
export async function addCase(world: ProfileWorld, caseNumber: string, organizationId = world.orgId): Promise<string> {
  return (await call<{ id: string }>(world, 'admin', 'POST', '/api/cases', { caseNumber, caseTypeId: world.caseTypeId, organizationId, assignedUserIds: [] })).id;
}

/** One API call as `who`; fails the test on an unexpected status. */
export async function call<T>(world: ProfileWorld, who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<T> {
  const res = await world.t.app.inject({ method, url, headers: { authorization: `Bearer ${world.tokens[who]}` }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return (res.body ? res.json() : undefined) as T;
}

/** A GlobalFiler reference profile added by hand to a case, with D3S1358 15,16 and Amelogenin X,Y. */
export async function addProfile(world: ProfileWorld, profileId: string, caseId = world.caseId): Promise<Profile> {
  const { markerIds: m } = world;
  const added = await call<{ items: Profile[] }>(world, 'admin', 'POST', '/api/profiles', {
    caseId,
    chemistryId: world.globalFiler,
    sampleType: 'Reference',
    sampleSourceId: null,
    physicalItemId: null,
    laboratoryId: world.laboratoryId,
    comments: '',
    profiles: [{ profileId, markerValues: [{ markerId: m.D3S1358, alleles: ['15', '16'] }, { markerId: m.Amelogenin, alleles: ['X', 'Y'] }] }],
  });
  return added.items[0]!;
}

/** Approves a pending profile as the admin, with its stored marker values. */
export async function approve(world: ProfileWorld, id: string): Promise<ProfileWithMarkers> {
  const profile = await call<ProfileWithMarkers>(world, 'admin', 'GET', `/api/profiles/${id}`);
  const markerValues = profile.markerValues.map(({ markerId, alleles }) => ({ markerId, alleles }));
  return call(world, 'admin', 'POST', `/api/profiles/${id}/approve`, { markerValues, comments: 'Checked', version: profile.version });
}

/** Draws the app at `path` signed in as `who`. */
export async function openAs(world: ProfileWorld, who: Who, path: string) {
  const me: Me = await meOf(world.t, world.tokens[who]);
  return renderScreen(path, { t: world.t, token: world.tokens[who], me });
}
