/** A file part of a multipart body. */
export interface FilePart {
  name: string;
  bytes: Buffer | string;
  type?: string;
}

/** A multipart/form-data body exactly as a browser's FormData sends it: the fields, then the file as field "file". */
export async function multipartBody(fields: Record<string, string>, file?: FilePart): Promise<{ payload: Buffer; headers: { 'content-type': string } }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) {
    const bytes = typeof file.bytes === 'string' ? Buffer.from(file.bytes) : file.bytes;
    form.append('file', new Blob([new Uint8Array(bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  }
  const request = new Request('http://locus.test/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}
