// `cgp-conformance explain <id> [--json]` / `explain --list` — what an anchor or rule id requires, where SPEC.md states it, the
// interpretations that apply, the scenarios that witness it, the red-team modes that prove its check can fail,
// and the command that runs just those scenarios; `--list` lists every anchor and rule id with its requirement
// on one line. Exit codes: 0 explained; 2 unknown id (nearest ids suggested), or neither an id nor --list.
import type { Command } from 'commander';
import { explain, listIds, nearestIds, renderExplanation, renderIdList } from '../../conformance/explain/explain.js';
import { CAPABILITY_TABLE, NEVER_WAIVED, renderCapabilityTable } from '../../conformance/host-suite/capabilities.js';

export function registerExplainCommand(program: Command): void {
  program
    .command('explain')
    .description('explain an anchor or rule id: requirement, SPEC.md passage, interpretations, witnessing scenarios, red-team modes')
    .argument('[id]', 'an anchor (B4) or rule id (S6.3-content-digest), or host-capabilities (the capability → anchors table)')
    .option('--list', 'list every anchor and rule id with its level, side, SPEC.md section and requirement, one line each')
    .option('--json', 'write the explanation (or the list) as JSON')
    .action((id: string | undefined, opts: { json?: boolean; list?: boolean }) => {
      if (opts.list) {
        if (id !== undefined) {
          process.stderr.write(`cgp-conformance explain: give an id or --list, not both (got ${JSON.stringify(id)} and --list)\n`);
          process.exitCode = 2;
          return;
        }
        const list = listIds();
        process.stdout.write(opts.json ? `${JSON.stringify(list, null, 2)}\n` : renderIdList(list));
        return;
      }
      if (id === undefined) {
        process.stderr.write('cgp-conformance explain: missing the id to explain (an anchor such as B4, a rule id such as S6.3-content-digest), or --list for every id\n');
        process.exitCode = 2;
        return;
      }
      // the host capability table (docs/host-control-protocol.md, Capabilities)
      if (id === 'host-capabilities' || id === 'capabilities') {
        process.stdout.write(opts.json ? `${JSON.stringify({ capabilities: CAPABILITY_TABLE, never_waived: NEVER_WAIVED }, null, 2)}\n` : renderCapabilityTable());
        return;
      }
      const e = explain(id.replace(/^@/, ''));
      if (!e) {
        const near = nearestIds(id.replace(/^@/, ''));
        process.stderr.write(`cgp-conformance explain: unknown anchor or rule id ${JSON.stringify(id)}; nearest: ${near.join(', ')}\n`);
        process.exitCode = 2;
        return;
      }
      process.stdout.write(opts.json ? `${JSON.stringify(e, null, 2)}\n` : renderExplanation(e));
    });
}
