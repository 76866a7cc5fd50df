/**
 * The running session actor, shared by SessionProvider, its hooks and the sign-in pages.
 * Kept apart from session.tsx so that file exports only the public interface.
 */
import { createActorContext } from '@xstate/react';
import { sessionMachine, type SessionActorRef, type SessionSnapshot } from '../../machines/session.machine';

export const SessionActorContext = createActorContext(sessionMachine);

export const useSessionActorRef = (): SessionActorRef => SessionActorContext.useActorRef();

export function useSessionSelector<T>(selector: (snapshot: SessionSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
  return SessionActorContext.useSelector(selector, compare);
}

let running: SessionActorRef | null = null;

/** Code outside React (the API client) reaches the session through this; SessionProvider registers its actor. */
export function registerRunningSession(actor: SessionActorRef): () => void {
  running = actor;
  return () => {
    if (running === actor) running = null;
  };
}

export function runningSession(): SessionActorRef | null {
  return running;
}
