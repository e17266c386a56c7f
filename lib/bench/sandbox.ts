/**
 * `npm run bench:sandbox`: what one code verification costs (lib/tasks/code/sandbox: the type-check in a worker,
 * then the tests in a limited child process), printed, never asserted (issue 14's "time per verification, and how
 * many run at once"). The project is small and realistic: three modules and six node:test tests.
 * 1. The first call of the process apart (a cold worker: loading typescript, parsing lib.d.ts and @types/node).
 * 2. Then BENCH_SANDBOX_SAMPLES (default 20) verifications one after another: p50/p95 of the whole, of the
 *    type-check and of the tests.
 * 3. Throughput at concurrency 1, 2 and 4 (configureSandbox): 12 verifications started at once, per second of wall
 *    time, after one untimed round at that concurrency so each worker is warm.
 * Not a test: nothing here can fail a build.
 */
import os from 'node:os';
import { configureSandbox, verifyInSandbox, type ProjectFiles, type SandboxRequest } from '../tasks/index';
import { percentile } from './percentile';
import { type BenchFigure, reportFigures } from './figures';

const files: ProjectFiles = {
  'src/money.ts': [
    'export type Cents = number & { readonly __brand: "cents" };',
    'export const cents = (value: number): Cents => Math.round(value) as Cents;',
    'export function format(amount: Cents): string {',
    '  const sign = amount < 0 ? "-" : "";',
    '  const abs = Math.abs(amount);',
    '  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;',
    '}',
    '',
  ].join('\n'),
  'src/cart.ts': [
    'import { cents, type Cents } from "./money";',
    'export interface Line { sku: string; unit: Cents; quantity: number }',
    'export class Cart {',
    '  private readonly lines = new Map<string, Line>();',
    '  add(sku: string, unit: Cents, quantity = 1): this {',
    '    const line = this.lines.get(sku);',
    '    this.lines.set(sku, { sku, unit, quantity: (line?.quantity ?? 0) + quantity });',
    '    return this;',
    '  }',
    '  remove(sku: string): boolean { return this.lines.delete(sku); }',
    '  get items(): Line[] { return [...this.lines.values()]; }',
    '  subtotal(): Cents { return cents(this.items.reduce((sum, l) => sum + l.unit * l.quantity, 0)); }',
    '}',
    '',
  ].join('\n'),
  'src/discount.ts': [
    'import { cents, type Cents } from "./money";',
    'export type Discount = { kind: "percent"; percent: number } | { kind: "fixed"; off: Cents };',
    'export function apply(total: Cents, discount: Discount): Cents {',
    '  const off = discount.kind === "percent" ? (total * discount.percent) / 100 : discount.off;',
    '  return cents(Math.max(0, total - off));',
    '}',
    '',
  ].join('\n'),
  'src/cart.test.ts': [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    'import { Cart } from "./cart";',
    'import { apply } from "./discount";',
    'import { cents, format } from "./money";',
    'test("formats cents", () => assert.equal(format(cents(1234)), "$12.34"));',
    'test("formats negatives", () => assert.equal(format(cents(-5)), "-$0.05"));',
    'test("adds up lines", () => assert.equal(new Cart().add("a", cents(250), 2).add("b", cents(99)).subtotal(), 599));',
    'test("merges a sku", () => assert.equal(new Cart().add("a", cents(1)).add("a", cents(1)).items[0]?.quantity, 2));',
    'test("percent discount", () => assert.equal(apply(cents(1000), { kind: "percent", percent: 15 }), 850));',
    'test("never below zero", () => assert.equal(apply(cents(100), { kind: "fixed", off: cents(500) }), 0));',
    '',
  ].join('\n'),
};

const request: SandboxRequest = { files, tests: ['src/cart.test.ts'] };

const ms = (value: number) => `${value.toFixed(0)} ms`;

async function once(): Promise<{ total: number; typecheck: number; tests: number }> {
  const started = performance.now();
  const report = await verifyInSandbox(request);
  const total = performance.now() - started;
  if (!report.typecheck.ok || report.tests.status !== 'passed' || report.tests.results.length !== 6) {
    throw new Error(`the bench project did not verify: ${JSON.stringify(report).slice(0, 2000)}`);
  }
  return { total, typecheck: report.typecheck.ms, tests: report.tests.ms };
}

function summary(name: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${name} p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}`;
}

async function main(): Promise<void> {
  const samples = Number(process.env.BENCH_SANDBOX_SAMPLES ?? 20);
  console.log(`sandbox bench: ${os.availableParallelism()} cores, node ${process.version}`);
  configureSandbox({ concurrency: 1 });
  const cold = await once();
  console.log(
    `cold first call: ${ms(cold.total)} (of which the type-check itself ${ms(cold.typecheck)} and the tests ` +
      `${ms(cold.tests)}; the rest is starting the worker, loading typescript and writing the folder)`,
  );
  const runs = [];
  for (let i = 0; i < samples; i += 1) runs.push(await once());
  console.log(
    `warm, ${samples} one after another: ${summary(
      'total',
      runs.map((r) => r.total),
    )}; ` +
      `${summary(
        'type-check',
        runs.map((r) => r.typecheck),
      )}; ${summary(
        'tests',
        runs.map((r) => r.tests),
      )}`,
  );
  const warm = [...runs.map((r) => r.total)].sort((a, b) => a - b);
  const figures: BenchFigure[] = [
    { name: 'code verification, warm, p50', value: percentile(warm, 50), unit: 'ms' },
    { name: 'code verification, warm, p95', value: percentile(warm, 95), unit: 'ms' },
  ];
  const batch = 12;
  for (const concurrency of [1, 2, 4]) {
    configureSandbox({ concurrency });
    await Promise.all(Array.from({ length: concurrency }, once)); // warms one worker per slot
    const started = performance.now();
    await Promise.all(Array.from({ length: batch }, once));
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `concurrency ${concurrency}: ${batch} verifications in ${seconds.toFixed(2)} s = ${(batch / seconds).toFixed(2)}/s`,
    );
    figures.push({ name: `code verifications per second, ${concurrency} at once`, value: batch / seconds, unit: '/s' });
  }
  reportFigures('sandbox', figures);
}

await main();
