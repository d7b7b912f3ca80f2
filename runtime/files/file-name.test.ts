import { describe, expect, it } from 'vitest';
import { isStoredName, sanitizeFileName } from './file-name.js';

describe('sanitizeFileName', () => {
  it.each([
    ['plain', 'report.pdf', 'report.pdf'],
    ['posix path', '../../etc/passwd', 'passwd'],
    ['windows path', 'C:\\Users\\x\\evil.txt', 'evil.txt'],
    ['reserved characters', 'a<b>c:d"e|f?g*h.txt', 'a_b_c_d_e_f_g_h.txt'],
    ['control characters', 'a\u0000b\u001fc.txt', 'a_b_c.txt'],
    ['hidden file', '.htaccess', '_htaccess'],
    ['trailing dots and spaces', 'name.txt. . ', 'name.txt'],
    ['dot dot', '..', null],
    ['only dots', '...', null],
    ['empty', '', null],
    ['NFC', 'e\u0301.txt', '\u00e9.txt'],
    ['unicode dots are characters', '\u2024\u2024', '\u2024\u2024'],
    ['too long', `${'a'.repeat(256)}`, null],
  ])('%s', (_name, raw, want) => {
    expect(sanitizeFileName(raw)).toBe(want);
  });

  it.each([['a.txt', true], ['../a.txt', false], ['.a', false], ['a/b', false], ['a\u0000', false], ['', false]])('isStoredName(%j) = %s', (name, want) => {
    expect(isStoredName(name)).toBe(want);
  });
});
