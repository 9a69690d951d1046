/**
 * The scenarios a run selects, decided before anything is spawned: a malformed tag expression or one that
 * selects no scenario is a usage error naming the expression (exit 2), never a run of 0 scenarios that
 * "passes".
 */
import parseTagExpression from '@cucumber/tag-expressions';
import type { IRunEnvironment, ISourcesCoordinates } from '@cucumber/cucumber/api';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ConfigError } from '../provider-suite/config.js';
import type { FreshDemand } from '../provider-suite/runtime.js';

/** Throws ConfigError when `expression` does not parse; returns it trimmed (undefined when empty). */
export function checkTagExpression(expression: string | undefined): string | undefined {
  if (expression === undefined || expression.trim() === '') return undefined;
  try {
    parseTagExpression(expression);
  } catch (err) {
    const why = (err as Error).message.replace(/^Tag expression ".*" could not be parsed because of syntax error: /, '');
    throw new ConfigError(`malformed tag expression ${JSON.stringify(expression)}: ${why} (e.g. "@B3", "@B1 or @B4", "@F5 and not @needs-verify")`);
  }
  return expression.trim();
}

/** A selected scenario: its feature file and the line of its pickle (the scenario, or an Examples row). */
export interface SelectedScenario {
  uri: string;
  line: number;
}

/** The scenarios the sources select; a user expression selecting none is a ConfigError. */
export async function selectScenarios(sources: ISourcesCoordinates, environment: IRunEnvironment, userTags: string | undefined, side: string): Promise<SelectedScenario[]> {
  // cucumber's API is loaded by the run (run-suite.ts) before it asks for the selection
  const { loadSources } = await import('@cucumber/cucumber/api');
  const { plan, errors } = await loadSources(sources, environment);
  if (errors.length > 0) throw new Error(`the suite's feature files did not parse: ${errors.map((e) => e.message).join('; ')}`);
  return someSelected(
    plan.map((p) => ({ uri: p.uri, line: p.location.line })),
    userTags,
    side,
  );
}

/** Ids that do tag scenarios of each side, for the message of a selection of nothing. */
export const TAG_EXAMPLES: Record<string, string> = { provider: '@B3 or @S6.3-content-digest', host: '@C8 or @S13-interop-validator' };

/** `selected`, unless it is empty: then a ConfigError naming the user's expression. */
export function someSelected(selected: SelectedScenario[], userTags: string | undefined, side: string): SelectedScenario[] {
  if (selected.length === 0) {
    throw new ConfigError(
      userTags !== undefined
        ? `the tag expression ${JSON.stringify(userTags)} selects no ${side} scenario (tags are anchor or rule ids such as ${TAG_EXAMPLES[side] ?? TAG_EXAMPLES.provider}; \`cgp-conformance explain <id>\` names an id's scenarios)`
        : `no ${side} scenario found`,
    );
  }
  return selected;
}

/**
 * How many selected scenarios open each kind of fresh connection (they are started ahead, all at
 * once). Read from the feature text: the Given steps between the scenario's header (the nearest Scenario
 * line above its pickle's line) and the next Scenario, Examples or Rule line. `uri` is relative to `cwd`.
 */
export function freshDemandOf(selected: readonly SelectedScenario[], cwd: string, steps: { plain: string; handshaken: string }): FreshDemand {
  const demand: FreshDemand = { plain: 0, handshaken: 0 };
  const files = new Map<string, string[]>();
  const header = /^\s*(Scenario|Scenario Outline|Scenario Template|Example|Examples|Scenarios|Rule|Feature|Background)\s*:/;
  for (const { uri, line } of selected) {
    let lines = files.get(uri);
    if (!lines) files.set(uri, (lines = readFileSync(isAbsolute(uri) ? uri : join(cwd, uri), 'utf8').split(/\r?\n/)));
    let start = line - 1;
    while (start > 0 && !/^\s*(Scenario|Scenario Outline|Scenario Template|Example)\s*:/.test(lines[start] ?? '')) start--;
    for (let i = start + 1; i < lines.length && !header.test(lines[i] ?? ''); i++) {
      const step = (lines[i] ?? '').trim().replace(/^(Given|And|When|Then|But|\*)\s+/, '');
      if (step === steps.plain) demand.plain++;
      else if (step === steps.handshaken) demand.handshaken++;
    }
  }
  return demand;
}
