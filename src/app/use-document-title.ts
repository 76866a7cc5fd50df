import { useEffect } from 'react';

/** Screen-reader users and tab lists learn where they are from the document title. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Locus` : 'Locus';
  }, [title]);
}
