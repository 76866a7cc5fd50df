import { useEffect, useState } from 'react';
import type { MarkerKind } from '../../../core/schemas/markers';
import { MAX_PAGE_SIZE } from '../../../core/schemas/list';
import { useApi } from '../../app/api-provider';
import { unwrap } from '../../api/unwrap';
import type { MarkerChoice } from './marker-order-editor';

/**
 * The markers a configuration may take (of `kind`, or all), read once for the form. Not read when
 * the user only views the chemistry: they may lack Markers Read, and need no choices.
 */
export function useMarkerChoices(kind: MarkerKind | undefined, enabled: boolean): readonly MarkerChoice[] {
  const api = useApi();
  const [choices, setChoices] = useState<readonly MarkerChoice[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    unwrap(api.GET('/api/markers', { params: { query: { pageSize: MAX_PAGE_SIZE, sort: 'name:asc', ...(kind ? { kind } : {}) } } })).then(
      (page) => current && setChoices(page.items.map(({ id, name, aliases }) => ({ id, name, aliases }))),
      // The API client has already told the user; the form still shows the stored markers.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, kind, enabled]);
  return choices;
}
