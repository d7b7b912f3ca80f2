import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { rewritesFor, urlRewriteStream } from './url-rewrite.js';

const rewrites = rewritesFor(['http://up:9100/orders', 'http://standby:9101/orders/'], 'http://gw/api/demo/Orders');
// raw JSON text: the third value uses the `\/` escape some serializers (.NET, PHP) write
const body = String.raw`{"next":"http://up:9100/orders?$skip=2","id":"http://standby:9101/orders(1)","escaped":"http:\/\/up:9100\/orders\/7","other":"http://up:9100/customers","unicode":"Zoë ☃ http://up:9100/orders/ë"}`;
const want = String.raw`{"next":"http://gw/api/demo/Orders?$skip=2","id":"http://gw/api/demo/Orders(1)","escaped":"http:\/\/gw\/api\/demo\/Orders\/7","other":"http://up:9100/customers","unicode":"Zoë ☃ http://gw/api/demo/Orders/ë"}`;

async function throughStream(chunkSize: number): Promise<string> {
  const bytes = Buffer.from(body);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  return text(Readable.from(chunks).pipe(urlRewriteStream(rewrites)));
}

describe('urlRewriteStream', () => {
  it.each([1, 2, 3, 7, 13, 64, 100_000])('rewrites upstream URLs split across %i-byte chunks, multi-byte text intact', async (size) => {
    expect(await throughStream(size)).toBe(want);
  });
});
