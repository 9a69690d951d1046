// `cgp-conformance certify [--out DIR] [--json]` — the main job: the provider-facing suite against the bundled
// reference provider over stdio and loaded in-process (where §6.4.1 lets it serve `reference` frames), the
// host-facing suite against the bundled reference host, merged into one coverage report (coverage.json /
// .md / .html, badge.svg) in DIR. The exit code is the merged verdict's: 0 conformant (every applicable
// anchor witnessed, no MUST failed) · 1 not · 3 the bundled provider never answered · 4 harness error.
import type { Command } from 'commander';
import { verdictText, writeCoverage } from '../../conformance/report/index.js';
import { resolveReportsDir } from '../../conformance/run/reports-dir.js';
import { runSuite, type RunSuiteOptions, type RunSuiteResult } from '../../conformance/run/run-suite.js';
import { EXIT_HARNESS_ERROR, EXIT_MUST_FAILED, EXIT_NEVER_ANSWERED, EXIT_OK } from '../../conformance/run/exit-codes.js';
import { exitCodeOf, jsonReport, runOutcome, summaryLine } from '../../conformance/provider-suite/cli-report.js';
import { ConfigError } from '../../conformance/provider-suite/config.js';
import { EXIT_CODES_HELP, exitSoon, parseMs, usageError } from '../suite-command.js';
import { toolVersion } from '../../util/tool-version.js';
import { addCiKitOptions, applyCiKitToRuns, prepareCiKit, type CiKitOptions } from '../ci-kit.js';

interface CertifyCliOptions extends CiKitOptions {
  out?: string;
  reportsDir?: string;
  json?: boolean;
  timeout?: string;
}

interface CertifyRun {
  label: string;
  options: RunSuiteOptions;
}

export function registerCertifyCommand(program: Command): void {
  const cmd = program
    .command('certify')
    .description('certify the bundled provider (stdio + in-process) and the bundled host; merged coverage report')
    .option('--out <dir>', 'where the run writes its files (default $CGP_REPORTS_DIR, else ./cgp-reports)')
    .option('--reports-dir <dir>', 'alias of --out')
    .option('--json', "write only a JSON document to stdout (each run's report and the merged verdict)")
    .option('--timeout <ms>', 'handshake and request timeout (default 10000)')
    .addHelpText('after', EXIT_CODES_HELP);
  // --junit --html --bug-report --strict --baseline over the three runs (ci-kit.ts)
  addCiKitOptions(cmd).action(async (opts: CertifyCliOptions) => {
    let timeout: number | undefined;
    let kit;
    try {
      timeout = parseMs('--timeout', opts.timeout);
      kit = prepareCiKit(opts);
    } catch (err) {
      return usageError('certify', (err as Error).message);
    }
    const reportsDir = resolveReportsDir(opts.out ?? opts.reportsDir);
    const timeouts = timeout !== undefined ? { handshakeMs: timeout, requestMs: timeout } : {};
    const progress = opts.json ? null : process.stderr;
    // the bundled targets, whatever CGP_PROVIDER / CGP_HOST name: certify certifies this package's own
    // (`hostModule: ''` is the bundled host)
    const runs: CertifyRun[] = [
      { label: 'provider over stdio', options: { side: 'provider', target: { kind: 'bundled' }, reportName: 'provider', reportsDir, timeouts, progress } },
      { label: 'provider in-process', options: { side: 'provider', target: { kind: 'in-process' }, reportName: 'provider-in-process', reportsDir, timeouts, progress } },
      { label: 'host', options: { side: 'host', hostModule: '', reportName: 'host', reportsDir, timeouts, progress } },
    ];
    const results: Array<{ label: string; result: RunSuiteResult }> = [];
    try {
      for (const run of runs) {
        progress?.write(`\n== certify: ${run.label}\n`);
        results.push({ label: run.label, result: await runSuite(run.options) });
      }
    } catch (err) {
      if (err instanceof ConfigError) return usageError('certify', err.message);
      throw err;
    }
    const lines: string[] = [];
    for (const { label, result } of results) {
      // the same summary line as stdio/http/host print (src/conformance/report/outcome.ts)
      lines.push(result.neverAnswered ? `${label}: the target never answered the handshake: ${result.reason ?? 'no reason recorded'}` : `${label}: ${summaryLine(runOutcome(result.summary))}`);
    }
    const ran = results.filter((r) => r.result.ran);
    const written = ran.length > 0 ? writeCoverage({ messages: ran.map((r) => r.result.messagesPath), target: 'bundled provider + bundled host', side: 'both', outDir: reportsDir }) : undefined;
    const codes = results.map((r) => exitCodeOf(r.result));
    const verdictCode = codes.includes(EXIT_NEVER_ANSWERED)
      ? EXIT_NEVER_ANSWERED
      : codes.includes(EXIT_MUST_FAILED) || (written !== undefined && !written.verdict.conformant && !codes.includes(EXIT_HARNESS_ERROR))
        ? EXIT_MUST_FAILED
        : codes.includes(EXIT_HARNESS_ERROR)
          ? EXIT_HARNESS_ERROR
          : EXIT_OK;
    const ci = await applyCiKitToRuns(
      results.map((r) => r.result),
      opts,
      kit,
      { baseCode: verdictCode, targetName: 'bundled provider + bundled host' },
    );
    const code = ci.exitCode;
    for (const line of ci.lines) process.stderr.write(`cgp-conformance certify: ${line}\n`);
    if (opts.json) {
      const doc = {
        tool_version: toolVersion(),
        exit_code: code,
        conformant: written?.verdict.conformant ?? false,
        coverage: written ? { summary: written.report.summary, files: written.files } : null,
        runs: results.map(({ label, result }) => ({ label, ...(jsonReport(result, toolVersion()) as object) })),
        ...ci.json,
      };
      process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      process.stdout.write(`${lines.join('\n')}\n`);
      if (written) process.stdout.write(verdictText(written.report, written.verdict));
      process.stdout.write(`reports: ${reportsDir}\n`);
    }
    process.exitCode = code;
    exitSoon(code);
  });
}
