import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './circuit-breaker.js';

describe('CircuitBreaker', () => {
  it('opens after the threshold, lets one probe through after openMs, closes on success', () => {
    let now = 0;
    const breaker = new CircuitBreaker(2, 1000, () => now);
    const o = 'http://u';
    breaker.failure(o);
    expect(breaker.allow(o)).toBe(true);
    breaker.failure(o);
    expect([breaker.stateOf(o), breaker.allow(o)]).toEqual(['open', false]);
    now = 1000;
    expect(breaker.stateOf(o)).toBe('half-open');
    expect(breaker.allow(o)).toBe(true); // the probe
    expect(breaker.allow(o)).toBe(false); // only one
    breaker.success(o);
    expect([breaker.stateOf(o), breaker.allow(o)]).toEqual(['closed', true]);
  });

  it('a failed probe opens the circuit again; threshold 0 never opens', () => {
    let now = 0;
    const breaker = new CircuitBreaker(1, 100, () => now);
    breaker.failure('o');
    now = 100;
    expect(breaker.allow('o')).toBe(true);
    breaker.failure('o');
    expect(breaker.allow('o')).toBe(false);
    const off = new CircuitBreaker(0, 100);
    for (let i = 0; i < 10; i++) off.failure('o');
    expect(off.allow('o')).toBe(true);
  });
});
