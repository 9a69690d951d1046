/**
 * The process the inspector starts for "run the suite" (docs/inspector.md): the provider suite through
 * runSuite against the inspected target, progress as JSON lines on stdout (progress-formatter.ts), then the
 * coverage page the `--html` option writes (the same report, with its transcripts) and one final
 * {"type":"done",…} line. A process of its own: the suite's runtime is one per process, and stopping the
 * inspector kills this process group — the providers the suite spawned with it.
 *
 * argv[2]: JSON {target, outDir, timeoutMs?, formatter}.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSuite } from '../../run/run-suite.js';
import { buildCoverage, conformanceVerdict } from '../../report/build.js';
import { renderHtml } from '../../report/render-html.js';
import { exitCodeOf } from '../../provider-suite/cli-report.js';
import { describeError } from '../../provider-suite/errors.js';

interface ChildArgs {
  target: { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string };
  outDir: string;
  timeoutMs?: number;
  formatter: string;
}

const emit = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
  const result = await runSuite({
    side: 'provider',
    target: args.target,
    reportName: 'inspector',
    reportsDir: args.outDir,
    progress: process.stdout,
    progressFormat: args.formatter,
    steps: 'side',
    ...(args.timeoutMs !== undefined ? { timeouts: { handshakeMs: args.timeoutMs, requestMs: args.timeoutMs } } : {}),
  });
  const code = exitCodeOf(result);
  if (!result.ran) {
    emit({ type: 'done', exit_code: code, ran: false, reason: result.reason ?? 'the target never answered the handshake' });
    return;
  }
  const report = buildCoverage({ messages: [result.messagesPath], target: result.config.target.label, side: 'provider' });
  const html = join(args.outDir, 'coverage.html');
  writeFileSync(html, renderHtml(report, undefined, { scenarios: result.summary.scenarios, ...(result.summary.target ? { target: result.summary.target } : {}) }));
  const verdict = conformanceVerdict(report);
  emit({
    type: 'done',
    ran: true,
    exit_code: code,
    conformant: verdict.conformant,
    summary: report.summary,
    must_failed: verdict.mustFailed.map((e) => e.id),
    totals: result.summary.totals,
    html,
  });
}

main().then(
  () => setTimeout(() => process.exit(0), 200).unref(),
  (err: unknown) => {
    emit({ type: 'done', ran: false, exit_code: 4, reason: `harness error (inconclusive): ${describeError(err)}` });
    setTimeout(() => process.exit(4), 200).unref();
  },
);
