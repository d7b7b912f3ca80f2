import { describe, expect, it } from 'vitest';
import { sameSecret } from './same-secret.js';

describe('sameSecret', () => {
  it.each([
    ['k3y-Secret', 'k3y-Secret', true],
    ['k3y-Secret', 'k3y-Secreu', false],
    ['k3y', 'k3y-Secret', false],
    ['', 'k3y-Secret', false],
    ['', '', true],
    ['ключ', 'ключ', true],
    ['ключ', 'ключи', false],
    // the same UTF-16 length, other bytes in UTF-8
    ['é', 'e', false],
  ])('%j against %j: %s', (given, expected, same) => {
    expect(sameSecret(given, expected)).toBe(same);
  });
});
