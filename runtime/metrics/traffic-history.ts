/**
 * The last hour of traffic, in memory, for the console's charts: 10-second slots (360), each with
 * requests, 4xx, 5xx and a latency histogram for the whole gateway and per endpoint, plus 429
 * rejections and response cache hits and misses. Fed by the same onResponse hook that counts the
 * Prometheus metrics (metrics.ts), from the same facts, so the charts and /metrics agree; there is
 * no second store. Console requests (/ui, /ui/...) are left out: watching the console does not
 * change what it shows.
 *
 * Cost on the request path: one Date.now(), a slot lookup and a few Map lookups; no allocation
 * once an endpoint has been seen in the current slot. Memory is bounded: at most MAX_ENDPOINTS
 * endpoints per slot (the rest are counted under OTHER_ENDPOINT).
 *
 * Per instance, and merged: with Redis, every instance shares its slots (traffic-sharing.ts) and
 * series() adds the other instances' numbers slot by slot.
 */

export const STEP_SECONDS = 10;
export const WINDOW_SECONDS = 3600;
const STEP_MS = STEP_SECONDS * 1000;
const SLOTS = WINDOW_SECONDS / STEP_SECONDS;
export const MAX_ENDPOINTS = 100;
export const OTHER_ENDPOINT = '(other endpoints)';

interface Counts {
  requests: number;
  e4xx: number;
  e5xx: number;
  /** Per latency bucket (not cumulative); the last is above every bound. */
  readonly latency: number[];
}

interface Slot {
  /** Slot number: start time / STEP_MS. */
  readonly index: number;
  readonly all: Counts;
  readonly endpoints: Map<string, Counts>;
  rateLimited: number;
  cacheHits: number;
  cacheMisses: number;
}

/** One slot as another instance shares it (traffic-sharing.ts): counts as [requests, 4xx, 5xx, ...latency]. */
export interface SlotExport {
  readonly i: number;
  readonly a: readonly number[];
  readonly e: Readonly<Record<string, readonly number[]>>;
  readonly r: number;
  readonly h: number;
  readonly m: number;
}

export interface EndpointTotal {
  readonly endpoint: string;
  readonly requests: number;
  readonly errors_4xx: number;
  readonly errors_5xx: number;
}

/** Columnar, one entry per slot (oldest first), as a chart library wants it; null: no request in the slot. */
export interface TrafficSeries {
  readonly step_seconds: number;
  readonly window_seconds: number;
  readonly endpoint: string | null;
  /** Instances whose traffic is in these numbers (1 without Redis). */
  readonly instances: number;
  /** Slot start, seconds since the epoch. */
  readonly t: number[];
  readonly requests: number[];
  readonly requests_per_second: number[];
  readonly error_4xx_percent: (number | null)[];
  readonly error_5xx_percent: (number | null)[];
  readonly latency_p50_ms: (number | null)[];
  readonly latency_p99_ms: (number | null)[];
  /** Whole gateway only (a 429 or a cache lookup is not kept per endpoint). */
  readonly rate_limited: number[];
  readonly cache_hit_percent: (number | null)[];
  readonly totals: {
    readonly requests: number;
    readonly errors_4xx: number;
    readonly errors_5xx: number;
    readonly rate_limited: number;
    readonly cache_hits: number;
    readonly cache_misses: number;
  };
  /** Every endpoint with traffic in the window, by name. */
  readonly endpoints: string[];
  /** Over the window, at most 10 each. */
  readonly top_by_traffic: EndpointTotal[];
  readonly top_by_errors: EndpointTotal[];
}

const emptyCounts = (buckets: number): Counts => ({ requests: 0, e4xx: 0, e5xx: 0, latency: new Array<number>(buckets).fill(0) });

function add(into: Counts, from: Counts): void {
  into.requests += from.requests;
  into.e4xx += from.e4xx;
  into.e5xx += from.e5xx;
  for (let i = 0; i < from.latency.length; i += 1) into.latency[i] = (into.latency[i] as number) + (from.latency[i] as number);
}

function bump(c: Counts, status: number, bucket: number): void {
  c.requests += 1;
  if (status >= 500) c.e5xx += 1;
  else if (status >= 400) c.e4xx += 1;
  c.latency[bucket] = (c.latency[bucket] as number) + 1;
}

const packCounts = (c: Counts): number[] => [c.requests, c.e4xx, c.e5xx, ...c.latency];

/** Adds shared counts (as packed) into `into`; ignores a foreign bucket layout. */
function addPacked(into: Counts, packed: readonly number[]): void {
  if (packed.length !== into.latency.length + 3 || !packed.every((n) => Number.isFinite(n))) return;
  into.requests += packed[0] as number;
  into.e4xx += packed[1] as number;
  into.e5xx += packed[2] as number;
  for (let i = 0; i < into.latency.length; i += 1) into.latency[i] = (into.latency[i] as number) + (packed[i + 3] as number);
}

const percent = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 100);

export class TrafficHistory {
  readonly #slots: (Slot | undefined)[] = new Array<Slot | undefined>(SLOTS);

  constructor(
    /** Latency bucket upper bounds in seconds (the Prometheus histogram's). */
    readonly bounds: readonly number[],
    private readonly now: () => number = Date.now,
  ) {}

  #slot(at: number): Slot {
    const index = Math.floor(at / STEP_MS);
    const position = index % SLOTS;
    let slot = this.#slots[position];
    if (slot === undefined || slot.index !== index) {
      slot = { index, all: emptyCounts(this.bounds.length + 1), endpoints: new Map(), rateLimited: 0, cacheHits: 0, cacheMisses: 0 };
      this.#slots[position] = slot;
    }
    return slot;
  }

  /** One answered request (the facts metrics.ts counts). */
  record(endpoint: string, status: number, seconds: number, cache: 'hit' | 'miss' | null): void {
    const slot = this.#slot(this.now());
    let counts = slot.endpoints.get(endpoint);
    if (counts === undefined) {
      const key = slot.endpoints.size < MAX_ENDPOINTS ? endpoint : OTHER_ENDPOINT;
      counts = slot.endpoints.get(key);
      if (counts === undefined) {
        counts = emptyCounts(this.bounds.length + 1);
        slot.endpoints.set(key, counts);
      }
    }
    const bounds = this.bounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > (bounds[bucket] as number)) bucket += 1;
    bump(slot.all, status, bucket);
    bump(counts, status, bucket);
    if (status === 429) slot.rateLimited += 1;
    if (cache === 'hit') slot.cacheHits += 1;
    else if (cache === 'miss') slot.cacheMisses += 1;
  }

  /** The `q` quantile (0..1) in ms from a bucket histogram: linear within the bucket it falls in. */
  quantileMs(latency: readonly number[], q: number): number | null {
    const total = latency.reduce((a, b) => a + b, 0);
    if (total === 0) return null;
    const rank = q * total;
    let seen = 0;
    for (let i = 0; i < latency.length; i += 1) {
      const n = latency[i] as number;
      if (n > 0 && seen + n >= rank) {
        const lower = i === 0 ? 0 : (this.bounds[i - 1] as number);
        if (i >= this.bounds.length) return Math.round(lower * 1000 * 100) / 100;
        const upper = this.bounds[i] as number;
        const value = lower + (upper - lower) * Math.max(0, Math.min(1, (rank - seen) / n));
        return Math.round(value * 1000 * 100) / 100;
      }
      seen += n;
    }
    return null;
  }

  /** The slots of the window that saw traffic, in the shape other instances read (traffic-sharing.ts). */
  exportSlots(): SlotExport[] {
    const last = Math.floor(this.now() / STEP_MS);
    const out: SlotExport[] = [];
    for (const slot of this.#slots) {
      if (slot === undefined || slot.index <= last - SLOTS || slot.index > last) continue;
      const e: Record<string, number[]> = {};
      for (const [name, counts] of slot.endpoints) e[name] = packCounts(counts);
      out.push({ i: slot.index, a: packCounts(slot.all), e, r: slot.rateLimited, h: slot.cacheHits, m: slot.cacheMisses });
    }
    return out.sort((x, y) => x.i - y.i);
  }

  /**
   * The window ending now, for the whole gateway (endpoint null) or one endpoint; `others` are the
   * slots other instances shared (their numbers are added slot by slot).
   */
  series(endpoint: string | null = null, others: readonly (readonly SlotExport[])[] = []): TrafficSeries {
    const now = this.now();
    const last = Math.floor(now / STEP_MS);
    const buckets = this.bounds.length + 1;
    const merged = this.#merged(last, others);
    const out = {
      t: [] as number[], requests: [] as number[], rps: [] as number[], e4: [] as (number | null)[], e5: [] as (number | null)[],
      p50: [] as (number | null)[], p99: [] as (number | null)[], limited: [] as number[], hits: [] as (number | null)[],
    };
    const totals = { requests: 0, errors_4xx: 0, errors_5xx: 0, rate_limited: 0, cache_hits: 0, cache_misses: 0 };
    const perEndpoint = new Map<string, Counts>();
    for (let index = last - SLOTS + 1; index <= last; index += 1) {
      const slot = merged.get(index);
      const counts = slot === undefined ? emptyCounts(buckets) : endpoint === null ? slot.all : (slot.endpoints.get(endpoint) ?? emptyCounts(buckets));
      // the slot under way has lasted less than a step
      const seconds = index === last ? Math.max(1, (now - index * STEP_MS) / 1000) : STEP_SECONDS;
      out.t.push(index * STEP_SECONDS);
      out.requests.push(counts.requests);
      out.rps.push(Math.round((counts.requests / seconds) * 100) / 100);
      out.e4.push(percent(counts.e4xx, counts.requests));
      out.e5.push(percent(counts.e5xx, counts.requests));
      out.p50.push(this.quantileMs(counts.latency, 0.5));
      out.p99.push(this.quantileMs(counts.latency, 0.99));
      out.limited.push(slot?.rateLimited ?? 0);
      out.hits.push(slot ? percent(slot.cacheHits, slot.cacheHits + slot.cacheMisses) : null);
      totals.requests += counts.requests;
      totals.errors_4xx += counts.e4xx;
      totals.errors_5xx += counts.e5xx;
      totals.rate_limited += slot?.rateLimited ?? 0;
      totals.cache_hits += slot?.cacheHits ?? 0;
      totals.cache_misses += slot?.cacheMisses ?? 0;
      if (slot) {
        for (const [name, c] of slot.endpoints) {
          let sum = perEndpoint.get(name);
          if (!sum) perEndpoint.set(name, (sum = emptyCounts(buckets)));
          add(sum, c);
        }
      }
    }
    const ranked = [...perEndpoint].map(([name, c]): EndpointTotal => ({ endpoint: name, requests: c.requests, errors_4xx: c.e4xx, errors_5xx: c.e5xx }));
    const byName = (a: EndpointTotal, b: EndpointTotal) => a.endpoint.localeCompare(b.endpoint);
    return {
      step_seconds: STEP_SECONDS,
      window_seconds: WINDOW_SECONDS,
      endpoint,
      instances: 1 + others.length,
      t: out.t,
      requests: out.requests,
      requests_per_second: out.rps,
      error_4xx_percent: out.e4,
      error_5xx_percent: out.e5,
      latency_p50_ms: out.p50,
      latency_p99_ms: out.p99,
      rate_limited: out.limited,
      cache_hit_percent: out.hits,
      totals,
      endpoints: ranked.map((e) => e.endpoint).sort(),
      top_by_traffic: [...ranked].sort((a, b) => b.requests - a.requests || byName(a, b)).slice(0, 10),
      top_by_errors: ranked
        .filter((e) => e.errors_4xx + e.errors_5xx > 0)
        .sort((a, b) => b.errors_4xx + b.errors_5xx - (a.errors_4xx + a.errors_5xx) || byName(a, b))
        .slice(0, 10),
    };
  }

  /** This instance's slots of the window, with the other instances' added (copies: the ring is not touched). */
  #merged(last: number, others: readonly (readonly SlotExport[])[]): Map<number, Slot> {
    const buckets = this.bounds.length + 1;
    const merged = new Map<number, Slot>();
    const at = (index: number): Slot => {
      let slot = merged.get(index);
      if (!slot) merged.set(index, (slot = { index, all: emptyCounts(buckets), endpoints: new Map(), rateLimited: 0, cacheHits: 0, cacheMisses: 0 }));
      return slot;
    };
    const inWindow = (index: number) => Number.isSafeInteger(index) && index > last - SLOTS && index <= last;
    for (const own of this.#slots) {
      if (own === undefined || !inWindow(own.index)) continue;
      if (others.length === 0) {
        merged.set(own.index, own);
        continue;
      }
      const slot = at(own.index);
      add(slot.all, own.all);
      for (const [name, counts] of own.endpoints) {
        const into = slot.endpoints.get(name) ?? emptyCounts(buckets);
        add(into, counts);
        slot.endpoints.set(name, into);
      }
      slot.rateLimited += own.rateLimited;
      slot.cacheHits += own.cacheHits;
      slot.cacheMisses += own.cacheMisses;
    }
    for (const shared of others) {
      for (const item of shared) {
        if (!inWindow(item.i)) continue;
        const slot = at(item.i);
        addPacked(slot.all, item.a);
        for (const [name, packed] of Object.entries(item.e ?? {})) {
          const into = slot.endpoints.get(name) ?? emptyCounts(buckets);
          addPacked(into, packed);
          slot.endpoints.set(name, into);
        }
        slot.rateLimited += Number.isFinite(item.r) ? item.r : 0;
        slot.cacheHits += Number.isFinite(item.h) ? item.h : 0;
        slot.cacheMisses += Number.isFinite(item.m) ? item.m : 0;
      }
    }
    return merged;
  }

  /** The slot under way, for the live event: slot start (s), requests so far, 4xx and 5xx. */
  latest(): { readonly t: number; readonly requests: number; readonly errors_4xx: number; readonly errors_5xx: number } {
    const slot = this.#slot(this.now());
    return { t: slot.index * STEP_SECONDS, requests: slot.all.requests, errors_4xx: slot.all.e4xx, errors_5xx: slot.all.e5xx };
  }
}
