/**
 * A copy of `request` addressed to `url`. The body is buffered rather than passed on as a stream:
 * browsers refuse streamed request bodies over HTTP/1.1, and API payloads are small.
 */
export async function withUrl(request: Request, url: string): Promise<Request> {
  const body = request.body === null ? undefined : await request.blob();
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body,
    credentials: request.credentials,
    cache: request.cache,
    redirect: request.redirect,
    integrity: request.integrity,
    keepalive: request.keepalive,
    signal: request.signal,
  });
}
