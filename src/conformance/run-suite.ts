/**
 * Run the provider-facing conformance suite in-process through cucumber's JS API (loadConfiguration +
 * runCucumber). Compiled runs (dist/) import the compiled steps from dist/steps; TypeScript runs (under tsx)
 * import steps/**\/*.ts. Outputs: reports/<name>.messages.ndjson (cucumber messages: the input of the coverage
 * report) and reports/<name>.junit.xml; progress goes to stderr (stdout stays free for --json).
 *
 * Before cucumber starts, the target is connected and handshaken once ("preflight"); that connection becomes
 * the suite's shared connection. A target that never answers at all (spawn failure, refused, no bytes before
 * the handshake timeout) is reported as such (`neverAnswered`) without running the scenarios — exit code 3.
 *
 * Runs in one process are sequential (the suite runtime is a per-process singleton); cucumber's support
 * library is loaded once and reused across runs.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfiguration, runCucumber, type IRunOptions, type ISupportCodeLibrary } from '@cucumber/cucumber/api';
import { PROTOCOL_VERSION } from '../protocol/version.js';
import { findPackageRoot } from '../util/package-root.js';
import { resolveSuiteConfig, type SuiteConfig, type SuiteTimeouts } from './suite/config.js';
import { describeError, isTargetError } from './suite/errors.js';
import { ackOf, neverAnswered, performHandshake } from './suite/handshake.js';
import { closeRuntime, installRuntime, SuiteRuntime } from './suite/runtime.js';
import { hostParametersFromEnv, type HostRunParameters } from './host/runtime.js';
import { openSession } from './suite/session.js';
import { summarize, type CucumberMessage, type SuiteSummary } from './suite/summary.js';

export interface RunSuiteOptions {
  /** provider: features/provider against a provider target; host: features/host against a host. */
  side: 'provider' | 'host';
  /** Host runs: the host adapter module (default CGP_HOST, else the bundled host). */
  hostModule?: string;
  /** Host runs: a host process speaking the host control protocol (default CGP_HOST_CMD). */
  hostCommand?: string;
  /** The target; default: CGP_PROVIDER / CGP_PROVIDER_URL, else the bundled reference provider. */
  target?: { kind: 'stdio'; command: string; args: string[]; cwd?: string } | { kind: 'http'; url: string } | { kind: 'in-process' };
  /** Cucumber tag expression, ANDed with @provider. */
  tags?: string;
  /** Output files are reports/<reportName>.messages.ndjson and reports/<reportName>.junit.xml. */
  reportName: string;
  /** Misbehaviour mode for the bundled provider (the red team). */
  misbehave?: string;
  timeouts?: Partial<SuiteTimeouts>;
  /** Where the reports go (default <package root>/reports). */
  reportsDir?: string;
  /** Cucumber's progress output (default process.stderr; null for none). */
  progress?: Writable | null;
  /** Progress formatter name (default 'progress'). */
  progressFormat?: string;
  /** Run the scenarios even when the target never answered the preflight handshake (default false). */
  runIfNeverAnswered?: boolean;
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
  /** The target never answered the handshake at all (DESIGN exit code 3). */
  neverAnswered: boolean;
  /** Why, when it never answered. */
  reason?: string;
  messagesPath: string;
  junitPath: string;
  config: SuiteConfig;
  summary: SuiteSummary;
}

let support: { key: string; library: ISupportCodeLibrary } | undefined;

/** Where the step definitions are: compiled when this module is compiled, TypeScript when it runs under tsx. */
function supportImports(root: string): string[] {
  const compiled = fileURLToPath(import.meta.url).endsWith('.js');
  if (compiled) {
    const dir = join(root, 'dist', 'steps');
    if (!existsSync(dir)) throw new Error(`compiled step definitions not found in ${dir}: run \`npm run build\` first`);
    return [join(dir, '**', '*.js')];
  }
  // Under tsx the loader is already active in this process: the .ts steps import directly.
  return [join(root, 'steps', '**', '*.ts')];
}

const EMPTY_SUMMARY: SuiteSummary = {
  success: false,
  scenarios: [],
  ids: [],
  totals: { passed: 0, failed: 0, 'not-applicable': 0, skipped: 0, undefined: 0, pending: 0, ambiguous: 0 },
  harness_errors: 0,
};

export async function runSuite(opts: RunSuiteOptions): Promise<RunSuiteResult> {
  if (!/^[A-Za-z0-9._-]+$/.test(opts.reportName)) throw new Error(`runSuite: reportName ${JSON.stringify(opts.reportName)} must be a plain file name`);
  if (opts.side === 'host') return runHostSuite(opts);
  const root = findPackageRoot();
  const config = resolveSuiteConfig({
    ...(opts.target ? { target: opts.target } : {}),
    ...(opts.misbehave !== undefined ? { misbehave: opts.misbehave } : {}),
    ...(opts.timeouts ? { timeouts: opts.timeouts } : {}),
  });
  const reportsDir = opts.reportsDir ?? join(root, 'reports');
  mkdirSync(reportsDir, { recursive: true });
  const messagesPath = join(reportsDir, `${opts.reportName}.messages.ndjson`);
  const junitPath = join(reportsDir, `${opts.reportName}.junit.xml`);
  const runId = `run-${randomBytes(6).toString('hex')}`;
  const runtime = new SuiteRuntime(config, runId);

  // Preflight: connect + handshake once; that connection becomes the shared one.
  try {
    const session = await openSession(config);
    const outcome = await performHandshake(session, PROTOCOL_VERSION);
    if (neverAnswered(outcome) && !opts.runIfNeverAnswered) {
      await session.close();
      await runtime.close();
      return { success: false, ran: false, neverAnswered: true, reason: describeError(outcome.error), messagesPath, junitPath, config, summary: EMPTY_SUMMARY };
    }
    runtime.adoptShared(session, outcome);
    if (!ackOf(outcome)) opts.progress?.write(`cgp-conformance: the handshake did not produce a handshake_ack; scenarios will report it\n`);
  } catch (err) {
    if (!isTargetError(err) || !opts.runIfNeverAnswered) {
      await runtime.close();
      if (!isTargetError(err)) throw err;
      return { success: false, ran: false, neverAnswered: true, reason: describeError(err), messagesPath, junitPath, config, summary: EMPTY_SUMMARY };
    }
    // runIfNeverAnswered: the scenarios connect again themselves, and each reports the failure.
  }
  installRuntime(runtime);

  const imports = supportImports(root);
  const tags = opts.tags && opts.tags.trim() !== '' ? `@provider and (${opts.tags})` : '@provider';
  const progress = opts.progress === undefined ? process.stderr : opts.progress;
  const format: Array<string | [string, string?]> = [
    ['message', messagesPath],
    ['junit', junitPath],
  ];
  if (progress !== null) format.unshift(opts.progressFormat ?? 'progress');
  const environment = {
    cwd: root,
    stdout: progress ?? nullStream(),
    stderr: process.stderr,
    env: process.env,
  };
  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: [join(root, 'features', 'provider', '**', '*.feature')],
        import: imports,
        tags,
        format,
        strict: true,
        // The config travels to the steps; the runtime installed above is matched by runId.
        worldParameters: { runId, config: config as unknown as Record<string, never> },
      },
    },
    environment,
  );
  const key = imports.join('\n');
  const options: IRunOptions = { ...runConfiguration, support: support?.key === key ? support.library : runConfiguration.support };
  const messages: CucumberMessage[] = [];
  let success: boolean;
  try {
    const result = await runCucumber(options, environment, (m) => messages.push(m as CucumberMessage));
    support = { key, library: result.support };
    success = result.success;
  } finally {
    await closeRuntime();
    await runtime.close();
  }
  const summary = summarize(messages);
  // A finding counts for its own id wherever it was observed: a MUST violated in a reply that a scenario
  // tagged for another id received fails the run even though that scenario's own ids were satisfied.
  if (summary.ids.some((i) => i.status === 'failed')) success = false;
  return { success, ran: true, neverAnswered: false, messagesPath, junitPath, config, summary };
}

/**
 * The host-facing suite: features/host against the host under test (no preflight: every scenario builds
 * a fresh host and its own scripted providers).
 */
async function runHostSuite(opts: RunSuiteOptions): Promise<RunSuiteResult> {
  const root = findPackageRoot();
  const config = resolveSuiteConfig({ ...(opts.timeouts ? { timeouts: opts.timeouts } : {}) });
  const reportsDir = opts.reportsDir ?? join(root, 'reports');
  mkdirSync(reportsDir, { recursive: true });
  const messagesPath = join(reportsDir, `${opts.reportName}.messages.ndjson`);
  const junitPath = join(reportsDir, `${opts.reportName}.junit.xml`);
  const fromEnv = hostParametersFromEnv();
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
  const imports = supportImports(root);
  // the published-types scenarios (@types, U4) travel with the host run: npm start merges both runs
  const side = '(@host or @types)';
  const tags = opts.tags && opts.tags.trim() !== '' ? `${side} and (${opts.tags})` : side;
  const progress = opts.progress === undefined ? process.stderr : opts.progress;
  const format: Array<string | [string, string?]> = [
    ['message', messagesPath],
    ['junit', junitPath],
  ];
  if (progress !== null) format.unshift(opts.progressFormat ?? 'progress');
  const environment = { cwd: root, stdout: progress ?? nullStream(), stderr: process.stderr, env: process.env };
  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: [join(root, 'features', 'host', '**', '*.feature'), join(root, 'features', 'types', '**', '*.feature')],
        import: imports,
        tags,
        format,
        strict: true,
        worldParameters: { host: host as unknown as Record<string, never> },
      },
    },
    environment,
  );
  const key = imports.join('\n');
  const options: IRunOptions = { ...runConfiguration, support: support?.key === key ? support.library : runConfiguration.support };
  const messages: CucumberMessage[] = [];
  const result = await runCucumber(options, environment, (m) => messages.push(m as CucumberMessage));
  support = { key, library: result.support };
  const summary = summarize(messages);
  const targetLabel =
    hostCommand !== undefined ? `host process: ${hostCommand}` : hostModule !== undefined ? `host adapter: ${hostModule}` : `the bundled reference host${misbehave !== undefined ? ` (misbehaving: ${misbehave})` : ''}`;
  return { side: 'host', targetLabel, success: result.success, ran: true, neverAnswered: false, messagesPath, junitPath, config, summary };
}

/** A sink for cucumber's main formatter when the caller wants no progress output. */
function nullStream(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/**
 * `node --import tsx src/conformance/run-suite.ts [tag expression]` (npm run suite): the suite against the
 * target the environment names (CGP_PROVIDER / CGP_PROVIDER_URL / CGP_MISBEHAVE; default the bundled provider).
 */
async function mainFromEnvironment(argv: string[]): Promise<number> {
  const { exitCodeOf, textReport } = await import('./suite/cli-report.js');
  // --host: the host suite; --in-process: the provider suite against the bundled provider loaded in-process
  const side = argv[0] === '--host' ? 'host' : 'provider';
  const inProcess = argv[0] === '--in-process';
  const rest = side === 'host' || inProcess ? argv.slice(1) : argv;
  const result = await runSuite({
    side,
    reportName: inProcess ? 'provider-in-process' : side,
    ...(inProcess ? { target: { kind: 'in-process' as const } } : {}),
    ...(rest[0] ? { tags: rest[0] } : {}),
  });
  process.stdout.write(textReport(result));
  return exitCodeOf(result);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mainFromEnvironment(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), 2_000).unref();
    },
    (err: unknown) => {
      process.stderr.write(`run-suite: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
