/**
 * A strict parser of the Prometheus text exposition format (0.0.4), standing in for
 * `promtool check metrics` (not installed here): metric and label names, escaping, one HELP/TYPE
 * per family before its samples, float values, no duplicate series, and histograms whose buckets
 * are cumulative, end in `le="+Inf"` and agree with `_count`. Throws on the first violation.
 */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  readonly type: string;
  readonly help: string;
  readonly samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count', ''],
};

function parseValue(text: string, line: number): number {
  // as Go's strconv.ParseFloat, which promtool uses: Inf and NaN in any case
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: bad value '${text}'`);
  return Number(text);
}

function parseLabels(text: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const m = /^([^=]+)="((?:[^"\\\n]|\\[\\"n])*)"(,?)/.exec(rest);
    if (!m) throw new Error(`line ${line}: bad labels '${text}'`);
    const [whole, name, raw, comma] = m as unknown as [string, string, string, string];
    if (!LABEL.test(name)) throw new Error(`line ${line}: bad label name '${name}'`);
    if (name in labels) throw new Error(`line ${line}: label '${name}' twice`);
    labels[name] = raw.replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(whole.length);
    if (comma === '' && rest.length > 0) throw new Error(`line ${line}: missing comma in '${text}'`);
  }
  return labels;
}

function familyOf(sample: string, families: Map<string, Family>): Family | undefined {
  for (const [name, family] of families) {
    const suffixes = SUFFIXES[family.type] ?? [''];
    if (suffixes.some((s) => `${name}${s}` === sample)) return family;
  }
  return undefined;
}

function checkHistograms(families: Map<string, Family>): void {
  for (const family of families.values()) {
    if (family.type !== 'histogram') continue;
    const series = new Map<string, Sample[]>();
    for (const s of family.samples.filter((x) => x.name.endsWith('_bucket'))) {
      const { le, ...rest } = s.labels;
      if (le === undefined) throw new Error(`${family.name}: bucket without le`);
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), s]);
    }
    for (const [key, buckets] of series) {
      const last = buckets[buckets.length - 1]!;
      if (last.labels['le'] !== '+Inf') throw new Error(`${family.name}${key}: last bucket is not +Inf`);
      for (let i = 1; i < buckets.length; i += 1) {
        if (buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${family.name}${key}: buckets not cumulative`);
      }
      const count = family.samples.find((s) => s.name === `${family.name}_count` && JSON.stringify(s.labels) === key);
      if (!count || count.value !== last.value) throw new Error(`${family.name}${key}: _count differs from the +Inf bucket`);
    }
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const lines = text.split('\n');
  if (lines.pop() !== '') throw new Error('the exposition must end with a newline');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw === '') return;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name '${name}'`);
      const family = families.get(name) ?? { name, type: '', help: '', samples: [] };
      if (family.samples.length > 0) throw new Error(`line ${line}: ${kind} after samples of ${name}`);
      if (kind === 'TYPE') {
        if (family.type !== '') throw new Error(`line ${line}: second TYPE for ${name}`);
        if (!TYPES.has(rest)) throw new Error(`line ${line}: unknown type '${rest}'`);
        families.set(name, { ...family, type: rest });
      } else {
        if (family.help !== '') throw new Error(`line ${line}: second HELP for ${name}`);
        families.set(name, { ...family, help: rest });
      }
      return;
    }
    if (raw.startsWith('#')) return;
    const m = /^([^\s{]+)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(raw);
    if (!m) throw new Error(`line ${line}: not a sample: '${raw}'`);
    const [, name, labelText, valueText] = m as unknown as [string, string, string | undefined, string];
    if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name '${name}'`);
    const family = familyOf(name, families);
    if (!family || family.type === '') throw new Error(`line ${line}: sample ${name} without a TYPE`);
    const labels = labelText ? parseLabels(labelText, line) : {};
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`line ${line}: duplicate series ${key}`);
    seen.add(key);
    family.samples.push({ name, labels, value: parseValue(valueText, line) });
  });
  checkHistograms(families);
  return families;
}

/** The value of one series; undefined when absent. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Readonly<Record<string, string>>): number | undefined {
  for (const family of families.values()) {
    const s = family.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
    if (s) return s.value;
  }
  return undefined;
}
