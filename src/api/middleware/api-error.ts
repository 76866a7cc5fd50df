/**
 * The one error every failed API call rejects with (spec 8.1: "the error is also passed on to the
 * caller"). `status` 0 means no HTTP response arrived (network failure).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** The parsed JSON body, the raw text when it was not JSON, or undefined. */
    readonly body: unknown,
    readonly method: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(status === 0 ? `${method} ${url} failed: no response` : `${method} ${url} failed with status ${status}`, options);
  }

  /** The server's `error` field (ARCHITECTURE "Calls": `{ error, details? }`), when it sent one. */
  get serverMessage(): string | undefined {
    const body = this.body;
    if (typeof body === 'object' && body !== null && 'error' in body) {
      const error = (body as { error: unknown }).error;
      if (typeof error === 'string' && error.trim() !== '') return error;
    }
    return undefined;
  }
}
