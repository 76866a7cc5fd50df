import { useEffect, useState } from 'react';
import { useApi } from '../app/api-provider';

/**
 * Whether Locus's own identity provider signs users in (GET /api/client-config), and so keeps
 * their passwords; undefined until known. With an external provider there is nothing to change here.
 */
export function useEmbeddedProvider(): boolean | undefined {
  const api = useApi();
  const [embedded, setEmbedded] = useState<boolean>();
  useEffect(() => {
    let current = true;
    api.GET('/api/client-config').then(
      ({ data }) => current && setEmbedded(data?.embeddedProvider ?? false),
      () => current && setEmbedded(false),
    );
    return () => {
      current = false;
    };
  }, [api]);
  return embedded;
}
