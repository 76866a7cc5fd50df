import { createActorContext } from '@xstate/react';
import { selfComparisonMachine } from '../../machines/selfComparison.machine';

/** The screen's one actor (machines/selfComparison): the page provides it, its parts read one value each. */
export const SelfComparisonActor = createActorContext(selfComparisonMachine);
