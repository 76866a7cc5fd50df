import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { pgErrorCode } from '../db/errors';
import { registerTextInputCheck } from './text-input';

// Handlers import the errors from here, beside the handler that answers them.
export { BadRequest, Conflict, Forbidden, HttpError, NotFound, Unauthorized } from '../errors';
import { HttpError } from '../errors';

/** PostgreSQL's "invalid byte sequence" (NUL in text) and "unsupported Unicode escape sequence" (\u0000 in jsonb). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/**
 * Client errors carry their message; anything else is logged in full and answered with a bare 500.
 * Text PostgreSQL cannot store (NUL, lone surrogates) is refused here too, before any route runs.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  registerTextInputCheck(app);
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({ path: v.instancePath, message: v.message }));
      return reply.code(400).send({ error: 'Your request was denied. Please validate your input.', details });
    }
    if (err instanceof HttpError) {
      if (err.statusCode >= 500) request.log.error({ err }, err.message);
      return reply.code(err.statusCode).send(err.details === undefined ? { error: err.message } : { error: err.message, details: err.details });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send({ error: 'Internal Server Error' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, unsupported media type, body too large…
      return reply.code(status).send({ error: err.message });
    }
    if (UNSTORABLE_TEXT.has(pgErrorCode(err) ?? '')) {
      // A backstop: the text check (text-input.ts) refuses such text first wherever a request carries it.
      request.log.warn({ err }, 'PostgreSQL refused text of the request');
      return reply.code(400).send({ error: 'The request holds text that cannot be stored (a NUL character or an invalid byte sequence)' });
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: 'Internal Server Error' });
  });
}
