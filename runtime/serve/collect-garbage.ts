/**
 * One full garbage collection, run once after the embedded demo database opened: loading it leaves
 * about 130 MB of ArrayBuffers behind (the compressed data directory, its unpacked copy, the WASM
 * start-up buffers) that an idle server would otherwise keep resident until heap pressure comes.
 * Node exposes `gc` only with --expose-gc; the flag is switched on for the one call (V8's
 * documented flag API), then off again.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collectGarbage(): void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed();
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
