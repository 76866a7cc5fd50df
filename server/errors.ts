// The errors domain code throws with the HTTP status they mean; server/http/errors.ts maps them to answers.
// Here, not in http/, so the domain folders need nothing from the transport layer.

/** The small family of errors handlers throw; `registerErrorHandler` (server/http/errors.ts) maps them to HTTP. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}
export class BadRequest extends HttpError {
  constructor(message = 'Your request was denied. Please validate your input.', details?: unknown) {
    super(400, message, details);
  }
}
export class Unauthorized extends HttpError {
  constructor(message = 'Sign-in required') {
    super(401, message);
  }
}
export class Forbidden extends HttpError {
  constructor(message = 'You do not have permission to perform this action.') {
    super(403, message);
  }
}
export class NotFound extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}
