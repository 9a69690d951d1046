// `cgp-conformance matrix FILE [--out DIR] [--jobs N] [--shard i/n] [--previous matrix.json] [--json]` — every
// implementation a matrix file lists, through the same suite as a single run, side by side in one static site
// (docs/matrix.md). `matrix diff OLD NEW` prints what changed between two matrix.json; `matrix merge DIR…`
// combines the shards' directories into one site.
// Exit codes: 0 the site was written (every column has its verdict, or says why it has none) · 1 with
// --previous (or for `diff`): a new failure · 2 usage error: a bad matrix file, option or shard set.
import { isAbsolute, resolve } from 'node:path';
import type { Command } from 'commander';
import { changeLines, diffMatrices, readMatrixDoc } from '../../conformance/matrix/diff.js';
import { parseShard, readMatrixFile } from '../../conformance/matrix/matrix-file.js';
import { mergeShards } from '../../conformance/matrix/merge.js';
import { renderSummary, runText, scoreText } from '../../conformance/matrix/render-summary.js';
import { defaultJobs, runMatrix, type MatrixResult } from '../../conformance/matrix/run-matrix.js';
import type { CliCommand } from '../../conformance/matrix/run-one.js';
import { serializeMatrix } from '../../conformance/matrix/site.js';
import type { MatrixDoc } from '../../conformance/matrix/types.js';
import { EXIT_MUST_FAILED, EXIT_OK } from '../../conformance/run/exit-codes.js';
import { ConfigError } from '../../conformance/provider-suite/config.js';
import { usageError } from '../suite-command.js';

const EXIT_HELP = '\nExit codes: 0 the site was written (each column has its verdict, or says why not) · 1 with --previous: a new failure · 2 usage error (bad matrix file, option, or shard set)';
const DEFAULT_OUT = 'cgp-matrix';

interface MatrixCliOptions {
  out?: string;
  jobs?: string;
  shard?: string;
  previous?: string;
  json?: boolean;
}

/** This very CLI, as the process was started (the flags of a profiler or test runner left out). */
export function currentCli(): CliCommand {
  const keep = process.execArgv.filter((a) => !/^--(test|cpu-prof|heap-prof|inspect|prof|watch)/.test(a));
  // the runs start in each entry's directory: a preloaded module named relative to here is named absolutely
  const args = keep.map((a, i) => (i > 0 && /^--(import|require|loader)$/.test(keep[i - 1]!) ? absoluteSpecifier(a) : a));
  return { command: process.execPath, args: [...args, resolve(process.argv[1]!)] };
}

function absoluteSpecifier(spec: string): string {
  if (/^(file|data|node):/.test(spec) || isAbsolute(spec)) return spec;
  if (spec.startsWith('.')) return resolve(spec);
  try {
    return import.meta.resolve(spec);
  } catch {
    return spec;
  }
}

function finish(command: string, result: MatrixResult, json: boolean | undefined): void {
  const doc = result.doc;
  process.stdout.write(json ? serializeMatrix(doc) : renderSummary(doc));
  process.stderr.write(`cgp-conformance ${command}: wrote ${result.written.find((p) => p.endsWith('index.html')) ?? ''} (matrix.json, summary.md, badges/, runs/)\n`);
  process.exitCode = doc.changes !== undefined && doc.changes.new_failures.length > 0 ? EXIT_MUST_FAILED : EXIT_OK;
}

function previousOf(path: string | undefined): MatrixDoc | undefined {
  return path === undefined ? undefined : readMatrixDoc(path);
}

export function registerMatrixCommand(program: Command): void {
  const matrix = program
    .command('matrix')
    .description('run the suite against every implementation a matrix file lists, side by side in one static site (also: matrix diff, matrix merge)')
    .argument('<file>', 'the matrix file (YAML or JSON; schema/matrix/matrix-file.schema.json)')
    .option('--out <dir>', `where the site goes (default ./${DEFAULT_OUT})`)
    .option('--jobs <n>', 'how many implementations run at once (default: os.availableParallelism())')
    .option('--shard <i/n>', 'run only the i-th of n deterministic parts of the list (merge them with `matrix merge`)')
    .option('--previous <matrix.json>', 'an earlier matrix.json: the page, summary and exit code show what changed')
    .option('--json', 'print matrix.json on stdout instead of the summary')
    .addHelpText('after', EXIT_HELP)
    .action(async (file: string, opts: MatrixCliOptions) => {
      try {
        const jobs = opts.jobs === undefined ? defaultJobs() : Number(opts.jobs);
        if (!Number.isInteger(jobs) || jobs < 1) throw new ConfigError(`--jobs expects a positive whole number, got ${JSON.stringify(opts.jobs)}`);
        const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
        if (shard !== undefined && opts.previous !== undefined) throw new ConfigError('--previous applies to a whole matrix: give it to `matrix merge`, not to a shard');
        const matrixFile = readMatrixFile(file);
        const previous = previousOf(opts.previous);
        const result = await runMatrix({
          file: matrixFile,
          outDir: resolve(opts.out ?? DEFAULT_OUT),
          cli: currentCli(),
          jobs,
          ...(shard ? { shard } : {}),
          ...(previous ? { previous } : {}),
          onColumn: (c, done, of) =>
            process.stderr.write(`cgp-conformance matrix: [${done}/${of}] ${c.name}: ${runText(c)}${c.score ? ` · MUSTs met ${scoreText(c)}, ${c.totals.failed} failed` : ` · ${c.reason ?? ''}`}\n`),
        });
        finish('matrix', result, opts.json);
      } catch (err) {
        if (err instanceof ConfigError) return usageError('matrix', err.message);
        throw err;
      }
    });
  matrix
    .command('diff')
    .description('what changed between two matrix.json: new failures, fixes, implementations added or gone, version changes')
    .argument('<old>', 'the earlier matrix.json')
    .argument('<new>', 'the later matrix.json')
    .option('--json', 'print the changes as JSON')
    .addHelpText('after', '\nExit codes: 0 no new failure · 1 a new failure · 2 usage error (a file that is not a matrix.json)')
    .action((oldPath: string, newPath: string, opts: { json?: boolean }) => {
      try {
        const changes = diffMatrices(readMatrixDoc(oldPath), readMatrixDoc(newPath));
        if (opts.json) process.stdout.write(`${JSON.stringify(changes, null, 2)}\n`);
        else {
          const lines = changeLines(changes);
          process.stdout.write(lines.length === 0 ? 'no change\n' : `${lines.join('\n')}\n`);
        }
        process.exitCode = changes.new_failures.length > 0 ? EXIT_MUST_FAILED : EXIT_OK;
      } catch (err) {
        if (err instanceof ConfigError) return usageError('matrix diff', err.message);
        throw err;
      }
    });
  matrix
    .command('merge')
    .description("combine the shards' directories (--shard i/n runs) into one site")
    .argument('<dirs...>', 'the --out directory of each shard')
    .option('--out <dir>', `where the merged site goes (default ./${DEFAULT_OUT})`)
    .option('--previous <matrix.json>', 'an earlier matrix.json: the page, summary and exit code show what changed')
    .option('--json', 'print matrix.json on stdout instead of the summary')
    .addHelpText('after', EXIT_HELP)
    .action((dirs: string[], opts: { out?: string; previous?: string; json?: boolean }) => {
      try {
        finish('matrix merge', mergeShards(dirs, resolve(opts.out ?? DEFAULT_OUT), previousOf(opts.previous)), opts.json);
      } catch (err) {
        if (err instanceof ConfigError) return usageError('matrix merge', err.message);
        throw err;
      }
    });
}
