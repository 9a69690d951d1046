/**
 * The scenarios a run selects, decided before anything is spawned: a malformed tag expression or one that
 * selects no scenario is a usage error naming the expression (exit 2), never a run of 0 scenarios that
 * "passes".
 */
import parseTagExpression from '@cucumber/tag-expressions';
import { loadSources, type IRunEnvironment, type ISourcesCoordinates } from '@cucumber/cucumber/api';
import { ConfigError } from './suite/config.js';

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

/** The number of scenarios the sources select; a user expression selecting none is a ConfigError. */
export async function countSelected(sources: ISourcesCoordinates, environment: IRunEnvironment, userTags: string | undefined, side: string): Promise<number> {
  const { plan, errors } = await loadSources(sources, environment);
  if (errors.length > 0) throw new Error(`the suite's feature files did not parse: ${errors.map((e) => e.message).join('; ')}`);
  if (plan.length === 0) {
    throw new ConfigError(
      userTags !== undefined
        ? `the tag expression ${JSON.stringify(userTags)} selects no ${side} scenario (tags are anchor or rule ids such as @B3 or @S6.3-content-digest; \`cgp-conformance explain <id>\` names an id's scenarios)`
        : `no ${side} scenario found`,
    );
  }
  return plan.length;
}
