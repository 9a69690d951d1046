// The World of every scenario, on either side: a provider scenario's ScenarioProbe (src/conformance/provider-suite)
// or a host scenario's HostScenario (src/conformance/host-suite), plus the reporting glue both share —
// findings and applicability become cucumber attachments, harness errors are kept apart from target failures.
import { setDefaultTimeout, setWorldConstructor, World, type IWorldOptions } from '@cucumber/cucumber';
import {
  APPLICABILITY_MEDIA_TYPE,
  ConformanceFailure,
  describeError,
  FINDING_MEDIA_TYPE,
  HARNESS_ERROR_MEDIA_TYPE,
  HarnessError,
  isTargetError,
  type ScenarioProbe,
} from '../src/conformance/provider-suite/index.js';
import type { Finding } from '../src/protocol/findings.js';
import type { HostScenario } from '../src/conformance/host-suite/scenario.js';
import { CapabilityNotApplicable } from '../src/conformance/host-suite/capabilities.js';

// Cucumber's own step timeout is off: every wire read inside a step is already bounded by the suite timeouts
// (decision 12, configurable per run), so the only limit left is a harness backstop scaled to those timeouts
// (see SuiteWorld.run). A fixed cucumber timeout would misfire whenever a user raises --timeout.
setDefaultTimeout(-1);

/** The backstop for one step: a handful of bounded reads, the shutdown grace, and slack. */
export function stepBackstopMs(timeouts: { handshakeMs: number; requestMs: number; shutdownGraceMs: number }): number {
  return 8 * Math.max(timeouts.handshakeMs, timeouts.requestMs) + timeouts.shutdownGraceMs + 10_000;
}

/** Run `work` but give up with a harness error after `ms` (the work itself is left to the AfterAll cleanup). */
export async function withBackstop<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const backstop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HarnessError(`${what} exceeded the harness backstop of ${ms} ms although every read in it is bounded`)), ms);
  });
  try {
    return await Promise.race([work, backstop]);
  } finally {
    clearTimeout(timer);
  }
}

export class SuiteWorld extends World {
  probe: ScenarioProbe | undefined;
  /** A host-facing scenario's state (set by the @host Before hook). */
  hostScenario: HostScenario | undefined;

  constructor(options: IWorldOptions) {
    super(options);
  }

  /** The host scenario (created by the @host Before hook). */
  get h(): HostScenario {
    if (!this.hostScenario) throw new HarnessError('no HostScenario: the @host Before hook did not run for this scenario');
    return this.hostScenario;
  }

  /** Attach every finding; fail the step with the first error's message (it starts with its id). */
  judge(findings: readonly Finding[]): void {
    for (const f of findings) this.attachFinding(f);
    const first = findings.find((f) => f.severity === 'error');
    if (first)
      throw new ConformanceFailure(
        findings
          .filter((f) => f.severity === 'error')
          .map((f) => f.message)
          .join('\n'),
      );
  }

  /** The scenario's probe (created by the Before hook). */
  get p(): ScenarioProbe {
    if (!this.probe) throw new HarnessError('no ScenarioProbe: the Before hook did not run for this scenario');
    return this.probe;
  }

  attachFinding(finding: Finding): void {
    this.attach(JSON.stringify(finding), FINDING_MEDIA_TYPE);
  }

  /**
   * Run a step body. Target errors that escape a probe become failures naming the scenario's ids; anything
   * else that is not a ConformanceFailure is a harness error, attached apart and re-thrown as such.
   */
  async run(body: () => Promise<unknown> | unknown): Promise<'skipped' | undefined> {
    try {
      const ms = this.probe ? stepBackstopMs(this.probe.config.timeouts) : 120_000;
      await withBackstop(Promise.resolve().then(body), ms, 'this step');
      return undefined;
    } catch (err) {
      if (err instanceof ConformanceFailure) throw err;
      // a host lacking a capability the scenario's (conditional) anchors need: not applicable, with why
      if (err instanceof CapabilityNotApplicable) {
        this.attach(JSON.stringify({ not_applicable: err.message }), APPLICABILITY_MEDIA_TYPE);
        return 'skipped';
      }
      if (isTargetError(err)) {
        throw new ConformanceFailure(`${this.probe?.ids.join(', ') ?? 'target'}: the target failed during this step: ${describeError(err)}`);
      }
      const harness = err instanceof HarnessError ? err : new HarnessError(describeError(err), { cause: err });
      this.attach(JSON.stringify({ harness_error: harness.message }), HARNESS_ERROR_MEDIA_TYPE);
      throw harness;
    }
  }
}

setWorldConstructor(SuiteWorld);
