// `cgp-conformance replay <transcript.ndjson> [--timeout MS] -- <command> [args…]` (or `replay FILE <url>`):
// send a fuzz transcript again — line 1 the handshake, then every hostile line, then the final query — and judge
// the answer as `fuzz` does. Exit codes: 0 the final query was answered (not reproduced) · 1 the finding
// reproduces · 2 usage or an unreadable transcript · 3 the target never answered the handshake · 4 harness error.
import type { Command } from 'commander';
import { readTranscript, replayLines, TranscriptFileError, type FuzzTarget } from '../../conformance/fuzz/index.js';
import { EXIT_HARNESS_ERROR, EXIT_MUST_FAILED, EXIT_NEVER_ANSWERED, EXIT_OK, EXIT_USAGE, exitCodesHelp } from '../../conformance/run/exit-codes.js';
import { FuzzUsageError, positiveInt, targetOf } from './fuzz.js';

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('replay a fuzz transcript: cgp-conformance replay FILE [options] -- <command> [args...]  |  replay FILE <url>')
    .argument('<file>', 'an NDJSON transcript written by `cgp-conformance fuzz`')
    .argument('<target...>', 'the provider command line (after `--`) or its http(s):// URL')
    .option('--timeout <ms>', 'how long the final query may take (default 10000)')
    .addHelpText(
      'after',
      exitCodesHelp({ [EXIT_OK]: 'not reproduced: the final query was answered', [EXIT_MUST_FAILED]: 'the finding reproduces', [EXIT_USAGE]: 'usage error or an unreadable transcript' }),
    )
    .action(async (file: string, words: string[], opts: { timeout?: string }) => {
      let target: FuzzTarget;
      let timeout: number;
      let lines;
      try {
        target = targetOf(words);
        timeout = positiveInt('--timeout', opts.timeout, 10_000);
        lines = readTranscript(file);
      } catch (err) {
        if (!(err instanceof FuzzUsageError) && !(err instanceof TranscriptFileError)) throw err;
        process.stderr.write(`cgp-conformance replay: ${err.message}\n`);
        process.exitCode = EXIT_USAGE;
        return;
      }
      process.stderr.write(`replay: ${file}: handshake + ${lines.hostile.length} hostile line(s) + query ${JSON.stringify(lines.probeId)}\n`);
      try {
        const outcome = await replayLines(target, { timeoutMs: timeout, handshakeTimeoutMs: Math.max(timeout, 10_000) }, lines);
        if (outcome.kind === 'handshake-failed') {
          process.stdout.write(`replay: no handshake_ack: ${outcome.message}\n`);
          process.exitCode = outcome.neverAnswered ? EXIT_NEVER_ANSWERED : EXIT_MUST_FAILED;
        } else if (outcome.kind === 'finding') {
          process.stdout.write(`replay: REPRODUCED (${outcome.finding.kind}, ${outcome.finding.anchor}): ${outcome.finding.message}\n`);
          process.exitCode = EXIT_MUST_FAILED;
        } else {
          process.stdout.write(`replay: not reproduced — the query ${JSON.stringify(lines.probeId)} was answered\n`);
          process.exitCode = EXIT_OK;
        }
      } catch (err) {
        process.stderr.write(`cgp-conformance replay: harness error (inconclusive): ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = EXIT_HARNESS_ERROR;
      }
    });
}
