/**
 * Run the provider-facing conformance suite in-process through cucumber's JS API (loadConfiguration +
 * runCucumber). Compiled runs (dist/) import the compiled steps from dist/steps; TypeScript runs (under tsx)
 * import steps/**\/*.ts. Outputs: <out>/<name>.messages.ndjson (cucumber messages: the input of the coverage
 * report) and <out>/<name>.junit.xml, <out> being --out / CGP_REPORTS_DIR / ./cgp-reports (reports-dir.ts);
 * progress goes to stderr (stdout stays free for --json).
 *
 * The selection is checked before the scenarios run (selection.ts): a malformed tag expression is a
 * ConfigError (exit 2) before anything is spawned; one selecting no scenario is a ConfigError too, once
 * cucumber has read the features (the preflight's process, started meanwhile, is stopped at once).
 *
 * Before cucumber starts, the target is connected and handshaken once ("preflight"); that connection becomes
 * the suite's shared connection. A target that never answers at all (spawn failure, refused, no bytes before
 * the handshake timeout) is reported as such (`neverAnswered`) without running the scenarios — exit code 3.
 *
 * Runs in one process are sequential (the suite runtime is a per-process singleton); cucumber's support
 * library is loaded once and reused across runs.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { IRunConfiguration, IRunEnvironment, IRunOptions, ISupportCodeLibrary } from '@cucumber/cucumber/api';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import { findPackageRoot } from '../../util/package-root.js';
import { resolveSuiteConfig, type SuiteConfig, type SuiteTimeouts } from '../provider-suite/config.js';
import { describeError, isTargetError } from '../provider-suite/errors.js';
import { ackOf, neverAnswered, performHandshake } from '../provider-suite/handshake.js';
import { closeRuntime, FRESH_STEPS, installRuntime, SuiteRuntime, type FreshDemand } from '../provider-suite/runtime.js';
import type { HostRunParameters } from '../host-suite/runtime.js';
import { junitTargetName, renderJunit } from '../report/junit.js';
import { openMessagesFile } from '../report/messages-file.js';
import { ensureReportsDir, resolveReportsDir } from './reports-dir.js';
import { supportFiles, type SupportSide } from './support-files.js';
import { checkTagExpression, freshDemandOf, selectScenarios } from './selection.js';
import { openSession, StdioSession } from '../provider-suite/session.js';
import { summarize, type CucumberMessage, type SuiteSummary } from '../provider-suite/summary.js';

export interface RunSuiteOptions {
  /** provider: features/provider against a provider target; host: features/host against a host. */
  side: 'provider' | 'host';
  /** Host runs: the host adapter module (default CGP_HOST, else the bundled host). */
  hostModule?: string;
  /** Host runs: a host process speaking the host control protocol (default CGP_HOST_CMD). */
  hostCommand?: string;
  /** The target; default: CGP_PROVIDER / CGP_PROVIDER_URL, else the bundled reference provider. */
  target?: { kind: 'stdio'; command: string; args: string[]; cwd?: string } | { kind: 'http'; url: string } | { kind: 'in-process' } | { kind: 'bundled' };
  /** Cucumber tag expression, ANDed with @provider. */
  tags?: string;
  /** Output files are reports/<reportName>.messages.ndjson and reports/<reportName>.junit.xml. */
  reportName: string;
  /** Misbehaviour mode for the bundled provider (the red team). */
  misbehave?: string;
  timeouts?: Partial<SuiteTimeouts>;
  /** Where the reports go (default CGP_REPORTS_DIR, else ./cgp-reports in the current directory). */
  reportsDir?: string;
  /** Cucumber's progress output (default process.stderr; null for none). */
  progress?: Writable | null;
  /** Progress formatter name (default 'progress'). */
  progressFormat?: string;
  /** Run the scenarios even when the target never answered the preflight handshake (default false). */
  runIfNeverAnswered?: boolean;
  /**
   * Which step definitions to load: 'all' (default) or only this side's ('side': what a process that runs
   * one suite does). Step modules run once per process, so a process that ran one side with
   * 'side' cannot run the other side afterwards (runSuite says so instead of running without its steps).
   */
  steps?: 'all' | 'side';
}

export interface RunSuiteResult {
  /** Which suite ran (default provider). */
  side?: 'provider' | 'host';
  /** The target as the report names it, when it is not `config.target` (host runs). */
  targetLabel?: string;
  /** No scenario failed, none undefined or pending (warnings allowed). */
  success: boolean;
  /** False when the suite did not run (the target never answered). */
  ran: boolean;
  /** The target never answered the handshake at all (exit code 3, docs/architecture.md "Exit codes"). */
  neverAnswered: boolean;
  /** Why, when it never answered. */
  reason?: string;
  messagesPath: string;
  junitPath: string;
  config: SuiteConfig;
  summary: SuiteSummary;
}

let support: { key: string; side: SupportSide; library: ISupportCodeLibrary } | undefined;

/**
 * Cucumber's API, loaded when a run first calls it: a provider run has started its target's first process
 * (the preflight) by then, so that process starts while cucumber loads, not after.
 */
let api: Promise<typeof import('@cucumber/cucumber/api')> | undefined;
function cucumber(): Promise<typeof import('@cucumber/cucumber/api')> {
  return (api ??= import('@cucumber/cucumber/api'));
}

const EMPTY_SUMMARY: SuiteSummary = {
  success: false,
  scenarios: [],
  ids: [],
  totals: { passed: 0, failed: 0, 'not-applicable': 0, skipped: 0, undefined: 0, pending: 0, ambiguous: 0 },
  harness_errors: 0,
};

/** One cucumber run of this package's features: configuration, selection check, run. */
interface CucumberPlan {
  runConfiguration: IRunConfiguration;
  environment: IRunEnvironment;
  key: string;
  /** Which step definitions the plan loads. */
  side: SupportSide;
  /** The fresh provider connections the selected scenarios open (provider side). */
  freshDemand: FreshDemand;
  /** Where the run's messages go (report/messages-file.ts). */
  messagesPath: string;
}

async function planCucumber(
  opts: RunSuiteOptions,
  root: string,
  features: string[],
  sideTags: string,
  worldParameters: Record<string, unknown>,
  paths: { messagesPath: string; junitPath: string },
): Promise<CucumberPlan> {
  const userTags = checkTagExpression(opts.tags);
  const tags = withUserTags(sideTags, userTags);
  // once a library is loaded, every later run in this process reuses it (step modules run once per process)
  const which = support?.side ?? (opts.steps === 'side' ? opts.side : 'all');
  if (which !== 'all' && which !== opts.side) {
    throw new Error(`runSuite: this process loaded only the ${which} steps (steps: 'side'); a ${opts.side} run needs steps: 'all' from the first run on`);
  }
  const toLoad = supportFiles(root, which);
  const files = toLoad.import;
  const progress = opts.progress === undefined ? process.stderr : opts.progress;
  // the messages file is written from runCucumber's message callback (runPlanned), the JUnit file from the
  // run's summary once it has ended (writeJunit): the only formatter cucumber loads is the progress output
  const format: Array<string | [string, string?]> = progress !== null ? [opts.progressFormat ?? 'progress'] : [];
  const environment: IRunEnvironment = { cwd: root, stdout: progress ?? nullStream(), stderr: process.stderr, env: process.env };
  const { runConfiguration } = await (
    await cucumber()
  ).loadConfiguration(
    {
      file: false,
      provided: {
        paths: features.map((f) => join(root, 'features', f, '**', '*.feature')),
        ...toLoad,
        tags,
        format,
        strict: true,
        worldParameters: worldParameters as Record<string, never>,
      },
    },
    environment,
  );
  const selected = await selectScenarios(runConfiguration.sources, environment, userTags, opts.side);
  return { runConfiguration, environment, key: files.join('\n'), side: which, freshDemand: freshDemandOf(selected, root, FRESH_STEPS), messagesPath: paths.messagesPath };
}

function withUserTags(sideTags: string, userTags: string | undefined): string {
  return userTags !== undefined ? `${sideTags} and (${userTags})` : sideTags;
}

/** The step definitions, loaded once per process (certify and the red team run many suites in one process). */
async function supportFor(plan: CucumberPlan): Promise<ISupportCodeLibrary> {
  if (support?.key !== plan.key) support = { key: plan.key, side: plan.side, library: await (await cucumber()).loadSupport(plan.runConfiguration, plan.environment) };
  return support.library;
}

async function runPlanned(plan: CucumberPlan, library?: ISupportCodeLibrary): Promise<{ success: boolean; summary: SuiteSummary }> {
  const options: IRunOptions = { ...plan.runConfiguration, support: library ?? (await supportFor(plan)) };
  const messages: CucumberMessage[] = [];
  const file = openMessagesFile(plan.messagesPath);
  let result;
  try {
    const { runCucumber } = await cucumber();
    result = await runCucumber(options, plan.environment, (m) => {
      messages.push(m as CucumberMessage);
      file.add(m);
    });
  } finally {
    file.close();
  }
  return { success: result.success, summary: summarize(messages) };
}

function outputPaths(opts: RunSuiteOptions): { messagesPath: string; junitPath: string } {
  const reportsDir = ensureReportsDir(resolveReportsDir(opts.reportsDir));
  return { messagesPath: join(reportsDir, `${opts.reportName}.messages.ndjson`), junitPath: join(reportsDir, `${opts.reportName}.junit.xml`) };
}

export async function runSuite(opts: RunSuiteOptions): Promise<RunSuiteResult> {
  if (!/^[A-Za-z0-9._-]+$/.test(opts.reportName)) throw new Error(`runSuite: reportName ${JSON.stringify(opts.reportName)} must be a plain file name`);
  if (opts.side === 'host') return runHostSuite(opts);
  const root = findPackageRoot();
  const config = resolveSuiteConfig({
    ...(opts.target ? { target: opts.target } : {}),
    ...(opts.misbehave !== undefined ? { misbehave: opts.misbehave } : {}),
    ...(opts.timeouts ? { timeouts: opts.timeouts } : {}),
  });
  const paths = outputPaths(opts);
  const { messagesPath, junitPath } = paths;
  const runId = `run-${randomBytes(6).toString('hex')}`;
  // A tag expression that does not parse is a usage error before anything is started.
  checkTagExpression(opts.tags);
  const runtime = new SuiteRuntime(config, runId);

  // The preflight (connect + handshake once; that connection becomes the shared one) starts first, and its
  // process starts while cucumber reads the features and loads the step definitions. The fresh connections
  // the selected scenarios will open are started ahead once the preflight has been answered, never beside a
  // target that has not started yet: the harness must not create the contention it would then blame on the
  // target (docs/interpretations.md §80).
  let supportLoaded!: () => void;
  const stepsLoaded = new Promise<void>((resolve) => (supportLoaded = resolve));
  const opened = openSession(config);
  opened.catch(() => {}); // awaited below
  const preflight = (async () => {
    const session = await opened;
    let outcome = await performHandshake(session, PROTOCOL_VERSION);
    // §80: a first process that wrote no byte at all within the handshake timeout is retried once, started
    // alone — after the step definitions have loaded, with nothing else starting — before it is "never answered".
    if (session instanceof StdioSession && outcome.reply === undefined) {
      session.retry = { answersElsewhere: () => true, startAlone: async (start) => ({ conn: await start(), done: () => {} }) };
      if (session.retriable(outcome.error)) {
        await stepsLoaded;
        const t0 = Date.now();
        try {
          const reply = await session.retryOnce(outcome.error, () => session.conn.handshake(PROTOCOL_VERSION, config.timeouts.handshakeMs), 1);
          outcome = { version: PROTOCOL_VERSION, reply, elapsedMs: Date.now() - t0 };
        } catch (error) {
          if (!isTargetError(error)) throw error;
          outcome = { version: PROTOCOL_VERSION, error, elapsedMs: Date.now() - t0 };
        }
        if (session.retried !== undefined) opts.progress?.write(`cgp-conformance: the first connection ${session.retried.replace(/^a fresh connection /, '')}\n`);
      }
      session.retry = undefined;
    }
    return { session, outcome };
  })();
  preflight.catch(() => {}); // awaited below
  // The config travels to the steps; the runtime installed below is matched by runId.
  let plan: CucumberPlan;
  try {
    plan = await planCucumber(opts, root, ['provider'], '@provider', { runId, config }, paths);
  } catch (err) {
    // a selection that selects nothing (a usage error): the preflight's process is stopped at once (its
    // handshake, if still outstanding, ends with it), and the error stands
    supportLoaded();
    await opened.then(
      (session) => session.close(),
      () => {},
    );
    await preflight.catch(() => {});
    await runtime.close();
    throw err;
  }
  const library = supportFor(plan);
  library.then(supportLoaded, supportLoaded);
  try {
    const { session, outcome } = await preflight;
    if (neverAnswered(outcome) && !opts.runIfNeverAnswered) {
      await session.close();
      await runtime.close();
      return { success: false, ran: false, neverAnswered: true, reason: describeError(outcome.error), messagesPath, junitPath, config, summary: EMPTY_SUMMARY };
    }
    runtime.adoptShared(session, outcome);
    // the fresh connections the selected scenarios open are started ahead, now that the target has answered
    runtime.planFresh(plan.freshDemand);
    if (!ackOf(outcome)) opts.progress?.write(`cgp-conformance: the handshake did not produce a handshake_ack; scenarios will report it\n`);
  } catch (err) {
    if (!isTargetError(err) || !opts.runIfNeverAnswered) {
      await runtime.close();
      if (!isTargetError(err)) throw err;
      return { success: false, ran: false, neverAnswered: true, reason: describeError(err), messagesPath, junitPath, config, summary: EMPTY_SUMMARY };
    }
    // runIfNeverAnswered: the scenarios connect again themselves, and each reports the failure.
    runtime.planFresh(plan.freshDemand);
  }
  installRuntime(runtime);
  let ran: { success: boolean; summary: SuiteSummary };
  try {
    ran = await runPlanned(plan, await library);
  } finally {
    await closeRuntime();
    await runtime.close();
  }
  writeJunit(junitPath, ran.summary, config.target.label);
  // A finding counts for its own id wherever it was observed: a MUST violated in a reply that a scenario
  // tagged for another id received fails the run even though that scenario's own ids were satisfied.
  const success = ran.success && !ran.summary.ids.some((i) => i.status === 'failed');
  return { success, ran: true, neverAnswered: false, messagesPath, junitPath, config, summary: ran.summary };
}

/**
 * The host-facing suite: features/host against the host under test (no preflight: every scenario builds
 * a fresh host and its own scripted providers).
 */
async function runHostSuite(opts: RunSuiteOptions): Promise<RunSuiteResult> {
  const root = findPackageRoot();
  const config = resolveSuiteConfig({ ...(opts.timeouts ? { timeouts: opts.timeouts } : {}) });
  const paths = outputPaths(opts);
  // loaded here: a provider run never loads the host suite's code
  const fromEnv = (await import('../host-suite/runtime.js')).hostParametersFromEnv();
  // How scripted providers start is decided by a probe (docs/interpretations.md §86): run while cucumber
  // loads, not when the first scenario connects one. A failed probe is reported where a scenario first needs
  // a scripted provider, as before.
  void import('../host-suite/scripted/scripted-relay.js').then((relay) => relay.scriptedProviderMode()).catch(() => {});
  const hostModule = opts.hostModule ?? (opts.hostCommand === undefined ? fromEnv.hostModule : undefined);
  const hostCommand = opts.hostCommand ?? (opts.hostModule === undefined ? fromEnv.hostCommand : undefined);
  const misbehave = opts.misbehave ?? fromEnv.misbehave;
  const host: HostRunParameters = {
    ...(hostModule !== undefined ? { hostModule } : {}),
    ...(hostCommand !== undefined ? { hostCommand } : {}),
    ...(misbehave !== undefined ? { misbehave } : {}),
    handshakeTimeoutMs: config.timeouts.handshakeMs,
    requestTimeoutMs: config.timeouts.requestMs,
  };
  // the published-types scenarios (@types, U4) travel with the host run: certify merges both runs
  const plan = await planCucumber(opts, root, ['host', 'types'], '(@host or @types)', { host }, paths);
  const ran = await runPlanned(plan);
  const targetLabel =
    hostCommand !== undefined
      ? `host process: ${hostCommand}`
      : hostModule !== undefined
        ? `host adapter: ${hostModule}`
        : `the bundled reference host${misbehave !== undefined ? ` (misbehaving: ${misbehave})` : ''}`;
  writeJunit(paths.junitPath, ran.summary, targetLabel);
  return { side: 'host', targetLabel, success: ran.success, ran: true, neverAnswered: false, ...paths, config, summary: ran.summary };
}

/**
 * The run's JUnit file (report/junit.ts: docs/interpretations.md §65), from its summary: the CI kit writes it
 * again with what only it knows (a baseline, --strict).
 */
function writeJunit(file: string, summary: SuiteSummary, label: string): void {
  writeFileSync(file, renderJunit(summary, { targetName: junitTargetName(summary, label) }));
}

/** A sink for cucumber's main formatter when the caller wants no progress output. */
function nullStream(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
