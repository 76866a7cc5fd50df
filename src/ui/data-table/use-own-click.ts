import { useEffect, useRef, type RefObject } from 'react';

/**
 * A control inside a grid row (a download button, a selection checkbox) keeps its click and keys to itself: the
 * grid listens on the row natively to open it, so React's stopPropagation would come too late. Stopping the
 * event natively also keeps it from React's root listener, so `onClick` runs here rather than in an onClick
 * prop that would never be called.
 */
export function useOwnClick(ref: RefObject<HTMLElement | null>, onClick: () => void): void {
  const latest = useRef(onClick);
  latest.current = onClick;
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const click = (e: Event) => {
      e.stopPropagation();
      latest.current();
    };
    const keep = (e: Event) => e.stopPropagation();
    element.addEventListener('click', click);
    element.addEventListener('keydown', keep);
    return () => {
      element.removeEventListener('click', click);
      element.removeEventListener('keydown', keep);
    };
  }, [ref]);
}
