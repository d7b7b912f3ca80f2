/** Raw HTTP against a listening server: the path is sent exactly as given (no URL normalisation). */
import http from 'node:http';
import type { Readable } from 'node:stream';

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  json<T = unknown>(): T;
}

export interface RawRequest {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string | number>>;
  readonly body?: Buffer | Readable;
}

export function rawRequest(port: number, path: string, request: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: request.method ?? 'GET', headers: request.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body.toString()) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (request.body === undefined) req.end();
    else if (Buffer.isBuffer(request.body)) req.end(request.body);
    else request.body.pipe(req);
  });
}

export const BOUNDARY = '----wharf-test-boundary-7d3f';

/** A multipart/form-data body with one part (a file part unless filename is null). */
export function multipartBody(field: string, filename: string | null, content: Buffer | string): Buffer {
  const disposition =
    filename === null ? `form-data; name="${field}"` : `form-data; name="${field}"; filename="${filename}"`;
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

export function multipartHeaders(token: string, length?: number): Record<string, string | number> {
  return {
    authorization: `Bearer ${token}`,
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    ...(length !== undefined ? { 'content-length': length } : {}),
  };
}
