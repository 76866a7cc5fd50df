import { createActorContext } from '@xstate/react';
import { mixtureSearchMachine, visibleFieldErrors, type FieldErrors } from '../../machines/mixtureSearch.machine';

/** The page's one actor (machines/mixtureSearch): the page provides it, its parts read one value each. */
export const MixtureSearchActor = createActorContext(mixtureSearchMachine);

const sameErrors = (a: FieldErrors, b: FieldErrors) => JSON.stringify(a) === JSON.stringify(b);

/** The message each field shows now (the machine decides which), re-rendering only when one changes. */
export const useFieldErrors = (): FieldErrors => MixtureSearchActor.useSelector((s) => visibleFieldErrors(s.context), sameErrors);

/** Whether the form is locked (a search runs). */
export const useBusy = (): boolean => MixtureSearchActor.useSelector((s) => s.hasTag('busy'));
