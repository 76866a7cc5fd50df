/**
 * The session for the whole SPA: one session actor (machines/session.machine.ts) with the live oidc-client-ts
 * effects, and the hooks views use to read it. Views branch on `useSessionStatus()`; the machine decides the rest.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Me } from '../../core/schemas/me';
import { sessionMachine } from '../../machines/session.machine';
import { sessionStatus, type SessionStatus as Status } from '../../machines/session.status';
import { sessionInputFrom } from './routes';
import { createSessionImplementations } from './session-actors';
import { SessionActorContext, registerRunningSession, runningSession, useSessionActorRef, useSessionSelector } from './session-context';

export type SessionStatus = Status;

let live: typeof sessionMachine | undefined;

/** Built on first use, so importing this module starts nothing. */
function liveSessionMachine(): typeof sessionMachine {
  live ??= sessionMachine.provide(createSessionImplementations());
  return live;
}

function RegisterRunningSession(): null {
  const actor = useSessionActorRef();
  useEffect(() => registerRunningSession(actor), [actor]);
  return null;
}

/** Starts the session once for the page; `logic` replaces the live machine (tests, stories). */
export function SessionProvider(props: { children: ReactNode; logic?: typeof sessionMachine }): React.JSX.Element {
  // The page the SPA was loaded on decides how the session starts (callback, silent renew, logged out, app).
  const [input] = useState(() => sessionInputFrom(window.location));
  return (
    <SessionActorContext.Provider logic={props.logic ?? liveSessionMachine()} options={{ input }}>
      <RegisterRunningSession />
      {props.children}
    </SessionActorContext.Provider>
  );
}

export function useSessionStatus(): SessionStatus {
  return useSessionSelector(sessionStatus);
}

/** The signed-in user as GET /api/me returned them; null until signed in. */
export function useMe(): Me | null {
  return useSessionSelector((s) => (s.hasTag('authenticated') ? s.context.me : null));
}

/** Why the user is not let in (spec 5 messages verbatim, or why sign-in failed); null otherwise. */
export function useSessionError(): string | null {
  return useSessionSelector((s) => (s.hasTag('refused') ? s.context.error : null));
}

export function useSessionActions(): { signOut(): void; reportUnauthorized(): void; licensesAccepted(): void } {
  const actor = useSessionActorRef();
  return useMemo(
    () => ({
      signOut: () => actor.send({ type: 'session.signOut' }),
      reportUnauthorized: () => actor.send({ type: 'api.unauthorized' }),
      licensesAccepted: () => actor.send({ type: 'licenses.accepted' }),
    }),
    [actor],
  );
}

/** For the API client middleware: the bearer token while signed in, else undefined. */
export function getAccessToken(): string | undefined {
  const snapshot = runningSession()?.getSnapshot();
  return snapshot?.hasTag('authenticated') ? (snapshot.context.accessToken ?? undefined) : undefined;
}

