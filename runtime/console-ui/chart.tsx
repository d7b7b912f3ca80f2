/**
 * A time-series chart (uPlot, bundled with the console: no CDN, no inline style, the CSP holds).
 * The canvas is drawn in the theme's colours and follows its container's width; a caption says
 * what is drawn and the last and highest values in words, for screen readers and for anyone
 * who prefers numbers. `data-points` carries the values drawn (tests read it to see the chart move).
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Line {
  readonly label: string;
  readonly values: readonly (number | null)[];
  /** One of the palette's names (the colours are chosen for both themes). */
  readonly tone: 'blue' | 'orange' | 'red' | 'green' | 'purple';
}

const PALETTE: Record<Line['tone'], string> = { blue: '#3b82f6', orange: '#e8891c', red: '#e5484d', green: '#30a46c', purple: '#8e4ec6' };

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Axis ticks: short (1.5k), so the labels fit the axis. */
function tick(value: number, unit: string): string {
  const short = Math.abs(value) >= 1000 ? `${Math.round(value / 100) / 10}k` : String(Math.round(value * 100) / 100);
  return unit === '%' ? `${short}%` : short;
}

function format(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return 'no data';
  const rounded = Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
  return `${rounded}${unit === '%' ? '%' : unit ? ` ${unit}` : ''}`;
}

/** In words: the last value with data and the highest over the window, per line. */
function summary(lines: readonly Line[], unit: string): string {
  return lines
    .map((line) => {
      const known = line.values.filter((v): v is number => v !== null);
      if (known.length === 0) return `${line.label}: no data`;
      return `${line.label}: last ${format(known[known.length - 1], unit)}, highest ${format(Math.max(...known), unit)}`;
    })
    .join('; ');
}

export function Chart(props: { id: string; title: string; unit: string; t: readonly number[]; lines: readonly Line[]; theme: string; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = [props.t, ...props.lines.map((l) => l.values)] as unknown as uPlot.AlignedData;

  // (re)created when the theme or the set of lines changes; data changes only call setData
  const shape = `${props.theme}|${props.lines.map((l) => `${l.label}:${l.tone}`).join(',')}`;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const axis = { stroke: cssVar('--muted', '#57606a'), grid: { stroke: cssVar('--border', '#d0d7de'), width: 1 }, ticks: { stroke: cssVar('--border', '#d0d7de'), width: 1 } };
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: props.height ?? 160,
      cursor: { drag: { x: false, y: false } },
      legend: { show: true, live: true },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max ?? 0, 1)] } },
      axes: [{ ...axis, size: 30 }, { ...axis, size: 48, values: (_u, ticks) => ticks.map((v) => tick(v, props.unit)) }],
      series: [
        {},
        ...props.lines.map((line) => ({ label: line.label, stroke: PALETTE[line.tone], width: 2, spanGaps: false, points: { show: false }, value: (_u: uPlot, v: number | null) => format(v, props.unit) })),
      ],
    };
    const chart = new uPlot(opts, data, el);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, el.clientWidth), height: props.height ?? 160 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [shape]);
  useEffect(() => {
    plot.current?.setData(data);
  });

  const points = props.lines.map((l) => l.values.map((v) => (v === null ? '' : String(v))).join(',')).join('|');
  return (
    <figure class="chart" id={props.id} data-points={points}>
      <figcaption><strong>{props.title}</strong> <span class="muted">{props.unit ? `(${props.unit})` : ''}</span></figcaption>
      <div ref={box} class="chart-canvas" role="img" aria-label={`${props.title}, last hour. ${summary(props.lines, props.unit)}`} />
    </figure>
  );
}
