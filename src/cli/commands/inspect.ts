// `cgp-conformance inspect [options] -- <command> [args…]` or `inspect [options] <url>` — look at a provider,
// judging nothing: handshake, print the ack, run one sample query and print its frames as a table (token_cost
// and content_digest recomputed). Exit codes: 0 shown; 1 the target answered, but not with an ack or frames;
// 2 usage; 3 it never answered the handshake. With --web: an interactive page instead (docs/inspector.md);
// exit 0 once it stopped.
import type { Command } from 'commander';
import { inspect, renderInspection } from '../../conformance/inspect/inspect.js';
import { ConfigError } from '../../conformance/provider-suite/config.js';
import { parseMs } from '../suite-command.js';

interface InspectCliOptions {
  query: string;
  kinds?: string;
  maxTokens: string;
  maxFrames: string;
  timeout?: string;
  json?: boolean;
  web?: boolean;
}

function positiveInt(name: string, value: string, allowZero = false): number {
  if (!/^[0-9]+$/.test(value) || (!allowZero && Number(value) === 0)) throw new ConfigError(`${name} expects a ${allowZero ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function registerInspectCommand(program: Command): void {
  program
    .command('inspect')
    .description('handshake a provider, print its ack and the frames of one sample query (judges nothing): inspect [options] -- <command> [args...] | inspect [options] <url>')
    .argument('<target...>', 'a provider command line (after `--`) or an http(s):// URL')
    .option('--query <goal>', 'the sample query goal', 'what does this provider know?')
    .option('--kinds <list>', 'comma-separated frame kinds to ask for (default: any)')
    .option('--max-tokens <n>', 'the query budget max_tokens', '4096')
    .option('--max-frames <n>', 'the query budget max_frames', '8')
    .option('--timeout <ms>', 'handshake and request timeout (default 10000)')
    .option('--json', 'write the inspection as JSON')
    .option('--web', 'serve an interactive inspector page on 127.0.0.1 (a random port, a per-run token) and print its URL; it stops when the page closes or on Ctrl-C')
    .action(async (words: string[], opts: InspectCliOptions) => {
      let target;
      let maxTokens;
      let maxFrames;
      let timeoutMs;
      try {
        maxTokens = positiveInt('--max-tokens', opts.maxTokens, true);
        maxFrames = positiveInt('--max-frames', opts.maxFrames, true);
        timeoutMs = parseMs('--timeout', opts.timeout);
        const first = words[0]!;
        if (/^https?:\/\//i.test(first)) {
          if (words.length > 1) throw new ConfigError(`a URL target takes no further arguments (got ${JSON.stringify(words.slice(1).join(' '))})`);
          target = { kind: 'http' as const, url: first };
        } else target = { kind: 'stdio' as const, command: first, args: words.slice(1) };
        if (opts.web) {
          // loaded only when asked for: the plain inspect never loads the web inspector
          const { serveInspector } = await import('../../conformance/inspect/web/cli.js');
          process.exitCode = await serveInspector({ target, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
          return;
        }
        const kinds =
          opts.kinds === undefined
            ? []
            : opts.kinds
                .split(',')
                .map((k) => k.trim())
                .filter((k) => k !== '');
        const result = await inspect({ target, goal: opts.query, kinds, maxTokens, maxFrames, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
        process.stdout.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : renderInspection(result));
        process.exitCode = result.exit_code;
        setTimeout(() => process.exit(result.exit_code), 2_000).unref();
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        process.stderr.write(`cgp-conformance inspect: ${err.message}\n`);
        process.exitCode = 2;
      }
    });
}
