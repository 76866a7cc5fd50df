/**
 * The small part of oidc-provider (v9, shipped without types) that server/identity uses.
 * Shapes follow the upstream docs (docs/README.md, example/my_adapter.js); replace this file
 * with @types/oidc-provider if that package is ever added.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** What an adapter stores; oidc-provider may add fields, so the shape stays open. */
  export interface AdapterPayload {
    [key: string]: unknown;
    jti?: string;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: unknown;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string, claims: unknown, rejected: string[]): Promise<AccountClaims>;
  }

  export interface ClientView {
    clientId: string;
    clientName?: string;
    grantTypeAllowed(grantType: string): boolean;
  }

  export interface ResourceServerView {
    scope?: string;
    readonly scopes: Set<string>;
    identifier(): string;
  }

  export interface SessionView {
    accountId?: string;
    state?: { secret?: string };
    grantIdFor(clientId: string): string | undefined;
  }

  export interface OidcState {
    provider: Provider;
    client?: ClientView;
    session: SessionView;
    params: Record<string, unknown>;
    result?: { consent?: { grantId?: string } };
    resourceServers: Record<string, ResourceServerView>;
    requestParamScopes: Set<string>;
    requestParamOIDCScopes: Set<string>;
    requestParamClaims: Set<string>;
    route: string;
    entities: { RotatedRefreshToken?: { remainingTTL: number }; [entity: string]: unknown };
    urlFor(name: string, params?: Record<string, unknown>): string;
  }

  /** The Koa context oidc-provider passes to configuration helpers. */
  export interface KoaContextWithOIDC {
    oidc: OidcState;
    body: unknown;
    type: string;
    status: number;
    host: string;
    accepts(...types: string[]): string | false;
    set(field: string, value: string): void;
  }

  export interface TokenView {
    kind: string;
    accountId?: string;
    clientId?: string;
    grantId?: string;
    scope?: string;
    resourceServer?: ResourceServerView;
  }

  export interface ErrorOut {
    error: string;
    error_description?: string;
    [key: string]: unknown;
  }

  export interface InteractionPrompt {
    name: string;
    reasons: string[];
    details: {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
      [key: string]: unknown;
    };
  }

  export interface Interaction {
    uid: string;
    returnTo: string;
    prompt: InteractionPrompt;
    params: Record<string, unknown>;
    session?: { accountId?: string; uid: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    readonly jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(indicator: string, scope: string): void;
    save(ttl?: number): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export type Configuration = Record<string, unknown>;

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    proxy: boolean;
    Grant: typeof Grant;
    /** The client model; provider.ts replaces compareClientSecret so secrets are kept hashed. */
    Client: { prototype: { clientSecret?: string; compareClientSecret(actual: unknown): boolean | Promise<boolean> } };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    /** Adds Koa middleware in front of the provider's own routes. */
    use(middleware: (ctx: never, next: () => Promise<void>) => Promise<void>): this;
  }

  export class OIDCProviderError extends Error {
    status: number;
    statusCode: number;
    error: string;
    error_description?: string;
    expose: boolean;
  }

  export const errors: {
    OIDCProviderError: typeof OIDCProviderError;
    SessionNotFound: new (description?: string) => OIDCProviderError;
    InvalidTarget: new (description?: string) => OIDCProviderError;
    InvalidRequest: new (description?: string) => OIDCProviderError;
  };
}
