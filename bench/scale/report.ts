import { writeFileSync } from 'node:fs';
import { median } from '../lib.js';

/** The figures of a run: every row of the final table, and the same as JSON (BENCH_OUT). */

export const log = (line: string) => process.stdout.write(`${line}\n`);
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let lastProgress = 0;
/** A progress line at most every few seconds (always when `done`). */
export function progress(line: string, done = false) {
  if (done || performance.now() - lastProgress > 5000) {
    lastProgress = performance.now();
    log(line);
  }
}

export function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * 0.99) - 1))]!;
}

export interface LatencyRow {
  kind: 'latency';
  part: string;
  operation: string;
  samples: number;
  median: number;
  p99: number;
  /** The same operation at the small size (100 pages, 100 spaces), when measured. */
  small?: { samples: number; median: number; p99: number };
  /** p99 large / p99 small. */
  ratio?: number;
  /** The p99 target (ms). */
  targetMs: number;
  targetRatio?: number;
  pass: boolean;
  note?: string;
}

export interface FigureRow {
  kind: 'figure';
  part: string;
  operation: string;
  /** The figure as shown (e.g. "812 req/s"). */
  value: string;
  /** Numbers behind it, for merging runs. */
  numbers: Record<string, number>;
  target: string;
  pass: boolean | null;
  note?: string;
}

export type Row = LatencyRow | FigureRow;

export const rows: Row[] = [];

export function latencyRow(
  part: string,
  operation: string,
  large: number[],
  small: number[] | undefined,
  options: { targetMs?: number; targetRatio?: number; note?: string } = {},
): LatencyRow {
  const targetMs = options.targetMs ?? 100;
  const row: LatencyRow = {
    kind: 'latency',
    part,
    operation,
    samples: large.length,
    median: median(large),
    p99: p99(large),
    targetMs,
    pass: false,
    ...(options.note ? { note: options.note } : {}),
  };
  if (small && small.length > 0) {
    row.small = { samples: small.length, median: median(small), p99: p99(small) };
    row.ratio = row.p99 / row.small.p99;
    row.targetRatio = options.targetRatio ?? 2;
  }
  row.pass = row.p99 < targetMs && (row.ratio === undefined || row.ratio <= row.targetRatio!);
  rows.push(row);
  log(
    `  ${operation}: median ${ms(row.median)}, p99 ${ms(row.p99)} (${row.samples} samples)${
      row.small
        ? `; small: median ${ms(row.small.median)}, p99 ${ms(row.small.p99)}; ratio ${row.ratio!.toFixed(2)}`
        : ''
    }${row.pass ? '' : '  <- MISSED'}`,
  );
  return row;
}

export function figureRow(row: Omit<FigureRow, 'kind'>): FigureRow {
  const full: FigureRow = { kind: 'figure', ...row };
  rows.push(full);
  log(`  ${row.operation}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
  return full;
}

function ms(n: number): string {
  return n >= 100 ? `${n.toFixed(0)} ms` : `${n.toFixed(1)} ms`;
}

/** The one markdown table of every figure of the run. */
export function table(dialect: string, sizes: string): string {
  const lines = [
    `Quire scale bench on ${dialect} (${sizes})`,
    '',
    '| part | operation | median | p99 | small median | small p99 | ratio (p99) | target | result |',
    '|---|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const row of rows) {
    if (row.kind === 'latency') {
      const target = `p99 < ${row.targetMs} ms${row.targetRatio ? `, ratio ≤ ${row.targetRatio}` : ''}`;
      lines.push(
        `| ${row.part} | ${row.operation}${row.note ? ` (${row.note})` : ''} | ${ms(row.median)} | ${ms(row.p99)} | ${
          row.small ? ms(row.small.median) : ''
        } | ${row.small ? ms(row.small.p99) : ''} | ${row.ratio === undefined ? '' : row.ratio.toFixed(2)} | ${target} | ${
          row.pass ? 'pass' : '**FAIL**'
        } |`,
      );
    } else {
      lines.push(
        `| ${row.part} | ${row.operation}${row.note ? ` (${row.note})` : ''} | ${row.value} |  |  |  |  | ${row.target} | ${
          row.pass === null ? 'n/a' : row.pass ? 'pass' : '**FAIL**'
        } |`,
      );
    }
  }
  return lines.join('\n');
}

export function writeJson(file: string, meta: Record<string, unknown>): void {
  writeFileSync(file, `${JSON.stringify({ ...meta, rows }, null, 2)}\n`);
}
