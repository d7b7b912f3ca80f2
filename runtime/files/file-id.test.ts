import { describe, expect, it } from 'vitest';
import { decodeFileId, encodeFileId } from './file-id.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('file ids', () => {
  it('round-trips names, including non-ASCII ones, for the same environment only', () => {
    for (const name of ['a.txt', 'Übersicht 100%.pdf', 'x y (1).png']) {
      const id = encodeFileId('Demo', name);
      expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeFileId(id, 'demo')).toBe(name);
      expect(decodeFileId(id, 'prod')).toBeNull();
    }
  });

  it.each([
    ['traversal', b64('demo:../a.txt')],
    ['absolute', b64('demo:/etc/passwd')],
    ['separator', b64('demo:a/b')],
    ['backslash', b64('demo:a\\b')],
    ['NUL', b64('demo:a\u0000.txt')],
    ['temp file', b64('demo:.wharf-upload-1')],
    ['no environment', b64('a.txt')],
    ['padding', `${b64('demo:ab.txt')}=`],
    ['standard alphabet', '+/+/'],
    ['not UTF-8', Buffer.from([0x64, 0x65, 0x6d, 0x6f, 0x3a, 0xff]).toString('base64url')],
    ['non-canonical trailing bits', `${b64('demo:a.txt').slice(0, -1)}B`],
    ['empty', ''],
  ])('rejects %s', (_name, id) => {
    expect(decodeFileId(id, 'demo')).toBeNull();
  });
});
