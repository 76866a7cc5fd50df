import type { Db } from '../../db/database';
import { nameList } from '../reference-lists/routes';
import { chemistriesUsing, populationsUsing, profilesUsingMarker } from './marker-uses';

/**
 * Why a marker cannot be deleted ("Marker D3S1358 is used by GlobalFiler, Identifiler Plus"), or
 * null when nothing uses it: kits, population statistics and profiles' marker values.
 */
export async function markerInUse(db: Db, id: string, name: string): Promise<string | null> {
  const kits = await chemistriesUsing(db, id);
  const pops = await populationsUsing(db, id);
  const typed = await profilesUsingMarker(db, id);
  const uses = [
    ...(kits.length > 0 ? [nameList(kits, kits.length)] : []),
    ...(pops.length > 0 ? [`the statistics of ${pops.length === 1 ? 'population' : 'populations'} ${nameList(pops, pops.length)}`] : []),
    ...(typed.total > 0 ? [`${typed.total === 1 ? 'profile' : 'profiles'} ${nameList(typed.names, typed.total)}`] : []),
  ];
  return uses.length > 0 ? `Marker ${name} is used by ${uses.join(' and by ')}` : null;
}
