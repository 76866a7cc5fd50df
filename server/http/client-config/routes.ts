import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SIGN_IN_SCOPES } from '../../../core/claims';
import { ClientConfig } from '../../../core/schemas/me';
import type { Config } from '../../config';

/** GET /api/client-config: where the SPA signs in. Public, and holds no secret. */
export const clientConfigRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.get(
    '/client-config',
    { config: { access: { public: true } }, schema: { tags: ['system'], summary: 'Identity provider settings for the SPA', response: { 200: ClientConfig } } },
    async () => ({
      authority: config.identity.issuer,
      clientId: config.identity.clientId,
      scope: SIGN_IN_SCOPES,
      embeddedProvider: config.identity.kind === 'embedded',
    }),
  );
};
