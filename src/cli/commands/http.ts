// `cgp-conformance http <url> [--tags <expr>] [--json] [--timeout <ms>]` — run the provider-facing conformance
// suite against an HTTP provider (one envelope per POST). Stdio-only probes (malformed lines, shutdown, raw
// framing) are reported not-applicable. A non-loopback http:// URL is refused (C7): use https://.
// Exit codes as for `stdio`: 0 / 1 / 2 usage / 3 never answered.
import type { Command } from 'commander';
import { runSuiteCommand, type SuiteCliOptions } from './stdio.js';
import { addCiKitOptions } from '../ci-kit.js';

export function registerHttpCommand(program: Command): void {
  const cmd = program
    .command('http')
    .description('run the provider conformance suite against an HTTP provider')
    .argument('<url>', 'the provider endpoint (http://127.0.0.1:<port>/ on loopback, else https://)')
    .option('--tags <expression>', 'cucumber tag expression selecting scenarios, e.g. "@F5" or "@B1 or @B4"')
    .option('--json', 'write only a JSON report to stdout')
    .option('--timeout <ms>', 'handshake and request timeout (default 10000)')
    .option('--report-name <name>', 'reports/<name>.messages.ndjson and .junit.xml (default provider-http)')
    .option('--reports-dir <dir>', 'where the messages and junit files go (default <package>/reports)');
  addCiKitOptions(cmd).action(async (url: string, opts: SuiteCliOptions) => {
      await runSuiteCommand('http', { kind: 'http', url }, opts);
    });
}
