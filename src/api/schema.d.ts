// generated — overwritten by npm run api:generate
//
// Placeholder until the lead generates this file from the server's OpenAPI document. It declares
// only the calls the app shell makes, in openapi-typescript's shape, so the client type-checks.

export interface paths {
  '/api/me': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations['getApiMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/accept-licenses': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get?: never;
    put?: never;
    post: operations['postApiAcceptLicenses'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

export type webhooks = Record<string, never>;

export interface components {
  schemas: {
    Me: {
      id: string;
      email: string;
      firstName: string;
      lastName: string;
      roleName: string;
      isAdmin: boolean;
      scope: 'All' | 'Organization' | null;
      organizations: { id: string; name: string }[];
      permissions: { [key: string]: string[] };
      licensesAccepted: boolean;
    };
    ErrorBody: { error: string; details?: unknown };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}

export type $defs = Record<string, never>;

export interface operations {
  getApiMe: {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    requestBody?: never;
    responses: {
      200: { headers: { [name: string]: unknown }; content: { 'application/json': components['schemas']['Me'] } };
      401: { headers: { [name: string]: unknown }; content: { 'application/json': components['schemas']['ErrorBody'] } };
    };
  };
  postApiAcceptLicenses: {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    requestBody?: never;
    responses: {
      200: { headers: { [name: string]: unknown }; content: { 'application/json': components['schemas']['Me'] } };
      401: { headers: { [name: string]: unknown }; content: { 'application/json': components['schemas']['ErrorBody'] } };
    };
  };
}
