import { createActorContext } from '@xstate/react';
import { familialSearchMachine } from '../../machines/familialSearch.machine';

/** The panel's one actor (machines/familialSearch): the panel provides it, its parts read one value each. */
export const FamilialSearchActor = createActorContext(familialSearchMachine);
