import type { FastifyReply } from 'fastify';

/** Aborted when the client goes before the answer (work on a worker then stops); work that has started writing runs to its end. */
export function untilClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
