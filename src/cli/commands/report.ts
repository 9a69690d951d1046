// `cgp-conformance report --messages <file.ndjson>… [--out DIR] [--target <name>] [--side provider|host|both|auto]`
// — rebuild coverage.json / .md / .html and badge.svg from the Cucumber Messages files of earlier runs (one per
// run; several are merged: a provider run and a host run give the merged 61-anchor coverage).
// Exit codes: 0 conformant (warnings allowed); 1 a MUST failed, an applicable anchor has no passing witness, or a
// tag/finding names an id the catalogue does not have; 2 usage error or unreadable message file.
import type { Command } from 'commander';
import { inferSide, MalformedMessagesError, UnknownCatalogueIdError, verdictText, writeCoverage, type RunSide } from '../../conformance/report/index.js';
import { resolveReportsDir } from '../../conformance/run/reports-dir.js';
import { ConfigError } from '../../conformance/provider-suite/config.js';
import { EXIT_MUST_FAILED, EXIT_OK } from '../../conformance/run/exit-codes.js';
import { usageError } from '../suite-command.js';
import { bugReportsFromMessages } from '../ci-kit.js';

interface ReportCliOptions {
  messages: string[];
  out?: string;
  reportsDir?: string;
  target?: string;
  side: string;
  bugReport?: string;
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('rebuild coverage.{json,md,html} and badge.svg from the message files of earlier runs')
    .requiredOption('--messages <file...>', "a run's <name>.messages.ndjson (repeat, or list several, to merge runs)")
    .option('--out <dir>', 'where the coverage files go (default $CGP_REPORTS_DIR, else ./cgp-reports)')
    .option('--reports-dir <dir>', 'alias of --out')
    .option('--target <name>', 'how the report names the target (default: the side)')
    .option('--side <side>', "provider, host, both or auto (from the scenarios' tags)", 'auto')
    .option('--bug-report <dir>', 'also write one Markdown bug report per failed or warned id into this directory')
    .addHelpText('after', '\nExit codes: 0 conformant · 1 a MUST failed or an applicable anchor has no passing witness · 2 usage error or unreadable message file')
    .action(async (opts: ReportCliOptions) => {
      if (!['provider', 'host', 'both', 'auto'].includes(opts.side)) return usageError('report', `--side must be provider, host, both or auto (got ${JSON.stringify(opts.side)})`);
      try {
        const side: RunSide | undefined = opts.side === 'auto' ? inferSide(opts.messages) : (opts.side as RunSide);
        if (side === undefined) return usageError('report', 'no scenario carries @provider or @host: pass --side provider|host|both');
        const outDir = resolveReportsDir(opts.out ?? opts.reportsDir);
        const target = opts.target ?? (side === 'both' ? 'provider + host' : side);
        const { report, verdict } = writeCoverage({ messages: opts.messages, target, side, outDir });
        process.stdout.write(verdictText(report, verdict));
        process.stderr.write(`wrote ${outDir}/coverage.{json,md,html} and badge.svg\n`);
        if (opts.bugReport !== undefined) {
          const written = await bugReportsFromMessages(opts.bugReport, opts.messages);
          process.stderr.write(`bug reports: ${written.length === 0 ? 'none (no failed or warned id)' : written.join(', ')}\n`);
        }
        process.exitCode = verdict.conformant ? EXIT_OK : EXIT_MUST_FAILED;
      } catch (err) {
        if (err instanceof UnknownCatalogueIdError) {
          process.stderr.write(`cgp-conformance report: ${err.message}\n`);
          process.exitCode = EXIT_MUST_FAILED;
          return;
        }
        if (err instanceof MalformedMessagesError || err instanceof ConfigError) return usageError('report', err.message);
        throw err;
      }
    });
}
