/**
 * Request ids (fastify's genReqId): random version-4 UUIDs, as `crypto.randomUUID()` makes them
 * (122 bits from the CSPRNG, so ids stay unique across instances and workers), but made in blocks:
 * one `randomFillSync` and one pass over a table per BLOCK ids, written as text into one buffer,
 * and each id one `toString('latin1', ...)` of it: a flat 36-character string. `randomUUID()` builds each id
 * from 16 string concatenations (about 0.6 KB of short-lived strings per request, issue 30).
 */
import { randomFillSync } from 'node:crypto';

/** Ids per block: one random fill and one buffer of text per this many requests. */
export const REQUEST_ID_BLOCK = 256;
const ID_LENGTH = 36;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** Where each of the 16 bytes' two hex digits go in the 36 characters (dashes at 8, 13, 18, 23). */
const OFFSETS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

const random = Buffer.alloc(16 * REQUEST_ID_BLOCK);
const text = Buffer.alloc(ID_LENGTH * REQUEST_ID_BLOCK, '-', 'latin1');
let next = REQUEST_ID_BLOCK;
let blocks = 0;
let made = 0;

function refill(): void {
  randomFillSync(random);
  for (let id = 0; id < REQUEST_ID_BLOCK; id += 1) {
    const from = id * 16;
    random[from + 6] = (random[from + 6]! & 0x0f) | 0x40; // version 4
    random[from + 8] = (random[from + 8]! & 0x3f) | 0x80; // variant 10xx
    const at = id * ID_LENGTH;
    for (let i = 0; i < 16; i += 1) {
      const byte = random[from + i]!;
      text[at + OFFSETS[i]!] = HEX[byte >> 4]!;
      text[at + OFFSETS[i]! + 1] = HEX[byte & 0x0f]!;
    }
  }
  next = 0;
  blocks += 1;
}

/** A new random UUID (version 4, lower-case hex), like `crypto.randomUUID()`. */
export function requestId(): string {
  if (next === REQUEST_ID_BLOCK) refill();
  const at = next * ID_LENGTH;
  next += 1;
  made += 1;
  return text.toString('latin1', at, at + ID_LENGTH);
}

/** Ids made and random blocks drawn so far in this process (the tests count them). */
export function requestIdCounts(): { readonly ids: number; readonly blocks: number } {
  return { ids: made, blocks };
}
