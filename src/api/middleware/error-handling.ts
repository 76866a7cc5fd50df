import type { Middleware } from 'openapi-fetch';
import { ApiError } from './api-error';

/** What the client asks the notification area to show; the app maps it onto its toaster. */
export interface ApiNotice {
  type: 'negative';
  message: string;
}

/** Spec 8.1 messages, word for word. */
export const FORBIDDEN_MESSAGE = 'You do not have permission to perform this action.';
export const BAD_REQUEST_MESSAGE = 'Your request was denied. Please validate your input.';
export const FAILED_MESSAGE = 'Your request failed. Please try again later.';

export interface ErrorHandlingOptions {
  /** 401: the session decides what to do (sign in again); the client never navigates. */
  onUnauthorized(): void;
  notify(notice: ApiNotice): void;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Tells the user (or the session) about a failed call, per spec 8.1. */
export function reportApiError(error: ApiError, options: ErrorHandlingOptions): void {
  if (error.status === 401) options.onUnauthorized();
  else if (error.status === 403) options.notify({ type: 'negative', message: FORBIDDEN_MESSAGE });
  else if (error.status === 400) options.notify({ type: 'negative', message: error.serverMessage ?? BAD_REQUEST_MESSAGE });
  else options.notify({ type: 'negative', message: FAILED_MESSAGE });
}

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

/**
 * Every non-2xx response and every network failure is reported, then rethrown as an ApiError so
 * the caller's promise rejects (openapi-fetch would otherwise resolve with `{ error }`).
 */
export function errorHandling(options: ErrorHandlingOptions): Middleware {
  return {
    async onResponse({ request, response }) {
      if (response.ok) return undefined;
      const error = new ApiError(response.status, await readBody(response), request.method, request.url);
      reportApiError(error, options);
      throw error;
    },
    onError({ request, error }) {
      // A cancelled request is the caller's own decision, not a failure to tell the user about.
      if (isAbort(error)) return undefined;
      const apiError = new ApiError(0, undefined, request.method, request.url, { cause: error });
      reportApiError(apiError, options);
      return apiError;
    },
  };
}
