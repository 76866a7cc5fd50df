/**
 * The body of a successful openapi-fetch call. Failed calls already rejected with an ApiError in
 * the error middleware (spec 8.1), so a missing body here means a 204.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  const { data } = await call;
  return data as T;
}
