// `cgp-conformance fuzz [--runs N] [--seed S] [--time-budget SECONDS] [--timeout MS] [--out DIR] -- <command> [args…]`
// (or `fuzz <url>`): hostile and malformed input. After every case a valid query must still be
// answered (R1); the first crash, hang, wrong id or non-envelope reply is shrunk to a minimal NDJSON transcript
// written to the reports directory, and the command that replays it is printed.
// Exit codes: 0 no finding · 1 a finding · 2 usage · 3 the target never answered the handshake · 4 harness error.
// Progress goes to stderr; with --json, stdout carries only the JSON summary.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT_HARNESS_ERROR, EXIT_MUST_FAILED, EXIT_NEVER_ANSWERED, EXIT_OK, EXIT_USAGE, exitCodesHelp } from '../../conformance/run/exit-codes.js';
import { DEFAULT_FUZZ_MAX_LINE_BYTES, runFuzz, type FuzzRunResult, type FuzzTarget } from '../../conformance/fuzz/index.js';

export class FuzzUsageError extends Error {}

interface FuzzCliOptions {
  runs?: string;
  seed?: string;
  timeBudget?: string;
  timeout?: string;
  shrinkBudget?: string;
  maxLineBytes?: string;
  out?: string;
  reportsDir?: string;
  json?: boolean;
}

/** --out DIR (alias --reports-dir), else CGP_REPORTS_DIR, else ./cgp-reports in the current directory. */
export function reportsDirOf(opts: { out?: string; reportsDir?: string }): string {
  return resolve(opts.out ?? opts.reportsDir ?? process.env.CGP_REPORTS_DIR ?? 'cgp-reports');
}

export function positiveInt(name: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) <= 0 || Number(value) > max) {
    throw new FuzzUsageError(`${name} expects a positive integer${max < Number.MAX_SAFE_INTEGER ? ` ≤ ${max}` : ''}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** `<url>` alone is an HTTP target; anything else is a stdio command line. */
export function targetOf(words: readonly string[]): FuzzTarget {
  if (words.length === 0) throw new FuzzUsageError('no target: give `-- <provider command> [args…]` or an http(s):// URL');
  if (words.length === 1 && /^https?:\/\//i.test(words[0]!)) return { kind: 'http', url: words[0]! };
  return { kind: 'stdio', command: words[0]!, args: words.slice(1) };
}

export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function replayCommandFor(target: FuzzTarget, transcript: string): string {
  const file = shellQuote(transcript);
  if (target.kind === 'http') return `cgp-conformance replay ${file} ${shellQuote(target.url)}`;
  return `cgp-conformance replay ${file} -- ${[target.command, ...target.args].map(shellQuote).join(' ')}`;
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

export function textSummary(r: FuzzRunResult): string {
  const out: string[] = [];
  out.push(`cgp-conformance fuzz — seed ${r.seed}`);
  out.push(
    `  cases ${r.cases}, inputs ${r.inputs}, lines ${r.linesSent}, ${mib(r.bytesSent)} sent, ${r.sessions} session(s), ${(r.elapsedMs / 1000).toFixed(1)} s${r.budgetExhausted ? ' (time budget reached)' : ''}`,
  );
  out.push(
    `  inputs per area: ${Object.entries(r.perArea)
      .map(([a, n]) => `${a} ${n}`)
      .join(', ')}`,
  );
  out.push(`  harness peak RSS ${mib(r.peakRssBytes)}`);
  if (r.handshakeFailure) out.push(`  no fuzzing: ${r.handshakeFailure.message}`);
  if (r.finding) {
    const f = r.finding;
    out.push(`  FINDING (${f.finding.kind}, ${f.finding.anchor}) at case ${f.failedCase}: ${f.finding.message}`);
    out.push(`  shrunk in ${f.shrinkSteps} step(s) to ${f.lines} lines (handshake + ${f.lines - 2} hostile + probe): ${f.transcriptPath}`);
    out.push(`  a fresh replay ${f.reproduced ? 'reproduces it' : 'did NOT reproduce it (it may depend on earlier traffic or timing)'}`);
    out.push(`  replay: ${f.replayCommand}`);
  } else if (!r.handshakeFailure) {
    out.push('  0 findings: no crash, no hang, no wrong id, no non-envelope reply');
  }
  return `${out.join('\n')}\n`;
}

export function exitCodeOfFuzz(r: FuzzRunResult): number {
  if (r.handshakeFailure) return r.handshakeFailure.neverAnswered ? EXIT_NEVER_ANSWERED : EXIT_MUST_FAILED;
  return r.finding ? EXIT_MUST_FAILED : EXIT_OK;
}

export function registerFuzzCommand(program: Command): void {
  program
    .command('fuzz')
    .description('fuzz a provider with hostile input: cgp-conformance fuzz [options] -- <command> [args...]  |  fuzz <url>')
    .argument('<target...>', 'the provider command line (after `--`) or its http(s):// URL')
    .option('--runs <n>', 'cases to run (each is 1–3 hostile inputs followed by a valid query)', '1000')
    .option('--seed <s>', 'seed (same seed, same cases); default: derived from the clock and printed')
    .option('--time-budget <seconds>', 'stop generating cases after this long')
    .option('--timeout <ms>', 'how long the valid query after each case may take (default 10000)')
    .option('--shrink-budget <seconds>', 'bound on shrinking a failing case (default 60)')
    .option('--max-line-bytes <n>', `the target's line cap: oversize lines exceed it (default ${DEFAULT_FUZZ_MAX_LINE_BYTES})`)
    .option('--out <dir>', 'where transcripts go (default $CGP_REPORTS_DIR or ./cgp-reports)')
    .option('--reports-dir <dir>', 'alias of --out')
    .option('--json', 'write only a JSON summary to stdout')
    .addHelpText(
      'after',
      exitCodesHelp({ [EXIT_OK]: 'no finding', [EXIT_MUST_FAILED]: 'a finding (crash, hang, wrong id or non-envelope reply), shrunk to a replayable transcript', [EXIT_USAGE]: 'usage error' }),
    )
    .action(async (words: string[], opts: FuzzCliOptions) => {
      let target: FuzzTarget;
      let runs: number, seed: number, timeout: number, shrink: number, maxLine: number, budget: number | undefined;
      try {
        target = targetOf(words);
        runs = positiveInt('--runs', opts.runs, 1000);
        seed = opts.seed === undefined ? Date.now() % 2 ** 31 : opts.seed === '0' ? 0 : positiveInt('--seed', opts.seed, 0, 2 ** 32 - 1);
        timeout = positiveInt('--timeout', opts.timeout, 10_000);
        shrink = positiveInt('--shrink-budget', opts.shrinkBudget, 60);
        maxLine = positiveInt('--max-line-bytes', opts.maxLineBytes, DEFAULT_FUZZ_MAX_LINE_BYTES, 1024 * 1024 * 1024);
        budget = opts.timeBudget === undefined ? undefined : positiveInt('--time-budget', opts.timeBudget, 0);
      } catch (err) {
        if (!(err instanceof FuzzUsageError)) throw err;
        process.stderr.write(`cgp-conformance fuzz: ${err.message}\n`);
        process.exitCode = EXIT_USAGE;
        return;
      }
      const outDir = reportsDirOf(opts);
      process.stderr.write(
        `fuzz: seed ${seed}, ${runs} cases${budget !== undefined ? `, time budget ${budget} s` : ''}, target ${target.kind === 'http' ? target.url : [target.command, ...target.args].join(' ')}\n`,
      );
      let result: FuzzRunResult;
      try {
        result = await runFuzz({
          target,
          runs,
          seed,
          timeoutMs: timeout,
          handshakeTimeoutMs: Math.max(timeout, 10_000),
          shrinkBudgetMs: shrink * 1000,
          assumedMaxLineBytes: maxLine,
          ...(budget !== undefined ? { timeBudgetMs: budget * 1000 } : {}),
          outDir,
          replayCommand: (file) => replayCommandFor(target, file),
          progress: (line) => process.stderr.write(`${line}\n`),
        });
      } catch (err) {
        process.stderr.write(`cgp-conformance fuzz: harness error (inconclusive): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exitCode = EXIT_HARNESS_ERROR;
        return;
      }
      const code = exitCodeOfFuzz(result);
      if (opts.json) {
        const { finding, ...rest } = result;
        const json = {
          ...rest,
          exit_code: code,
          findings: finding ? 1 : 0,
          ...(finding
            ? {
                finding: {
                  ...finding.finding,
                  failed_case: finding.failedCase,
                  lines: finding.lines,
                  shrink_steps: finding.shrinkSteps,
                  transcript: finding.transcriptPath,
                  metadata: finding.metadataPath,
                  reproduced: finding.reproduced,
                  replay: finding.replayCommand,
                },
              }
            : {}),
        };
        process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      } else {
        process.stdout.write(textSummary(result));
      }
      if (result.finding) process.stderr.write(`fuzz: replay with: ${result.finding.replayCommand}\n`);
      process.exitCode = code;
    });
}
