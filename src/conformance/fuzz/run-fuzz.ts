/**
 * The fuzz driver: fast-check generates cases (inputs.ts), each case is sent to ONE long-lived
 * session followed by the liveness probe (session.ts). The first failing case is shrunk — every shrink
 * candidate runs against a FRESH session (a new child for stdio), so the minimal case reproduces from a
 * clean start — and written as an NDJSON transcript (transcript-file.ts) that `replay` sends again.
 *
 * Deterministic by seed: the runs are split into chunks of CHUNK cases; chunk k is one fast-check run with
 * seed (seed + k·CHUNK_SEED_STEP) mod 2^32, so the same seed generates the same cases in the same order.
 */
import fc from 'fast-check';
import { AREAS, fuzzCase, lineBytes, lineLength, type Area, type FuzzInput } from './inputs.js';
import { HandshakeFailed, openFuzzSession, probeLine, DEFAULT_HANDSHAKE_LINE, type Finding, type FuzzSession, type FuzzTarget, type SessionOptions } from './session.js';
import { updateFinding, writeFinding, type TranscriptLines } from './transcript-file.js';

export const CHUNK = 250;
const CHUNK_SEED_STEP = 0x9e3779b1;

export interface FuzzRunOptions extends SessionOptions {
  target: FuzzTarget;
  /** Cases to run (each case is 1–3 inputs). */
  runs: number;
  seed: number;
  /** Stop generating new cases after this long (shrinking has its own budget). */
  timeBudgetMs?: number;
  /** Bound on shrinking (default 60 s); past it the smallest failing case so far is kept. */
  shrinkBudgetMs?: number;
  /** The line cap assumed for the target, for oversize lines (default 16 MiB). */
  assumedMaxLineBytes?: number;
  /** Where the transcript goes. */
  outDir: string;
  /** How the printed replay command names the target. */
  replayCommand: (transcript: string) => string;
  /** Progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
  progressEveryMs?: number;
}

export interface FuzzFindingReport {
  finding: Finding;
  /** 1-based index of the first failing case. */
  failedCase: number;
  /** The minimal case, as inputs. */
  inputs: FuzzInput[];
  transcriptPath: string;
  metadataPath: string;
  /** Lines of the transcript (handshake + hostile + probe). */
  lines: number;
  shrinkSteps: number;
  replayCommand: string;
  /** A fresh replay of the transcript gave a finding again. */
  reproduced: boolean;
}

export interface FuzzRunResult {
  seed: number;
  cases: number;
  inputs: number;
  perArea: Record<Area, number>;
  linesSent: number;
  bytesSent: number;
  sessions: number;
  elapsedMs: number;
  /** Stopped by --time-budget before --runs cases. */
  budgetExhausted: boolean;
  finding?: FuzzFindingReport;
  /** The target never completed a handshake (exit 3), or answered it wrongly (exit 1). */
  handshakeFailure?: { message: string; neverAnswered: boolean };
  /** Peak resident set of the harness process, bytes. */
  peakRssBytes: number;
}

function groupsOf(inputs: readonly FuzzInput[]): Buffer[][] {
  return inputs.map((i) => i.lines.map(lineBytes));
}

/** The shrunk finding: its transcript and metadata written, replayed once on a fresh session. */
async function recordFinding(
  opts: FuzzRunOptions,
  sessionOpts: SessionOptions,
  failedCase: number,
  lastFail: { inputs: FuzzInput[]; finding: Finding; probeId: string },
  shrinkSteps: number,
): Promise<FuzzFindingReport> {
  const lines: TranscriptLines = {
    handshake: DEFAULT_HANDSHAKE_LINE,
    hostile: groupsOf(lastFail.inputs).flat(),
    probe: probeLine(lastFail.probeId),
    probeId: lastFail.probeId,
  };
  const base = `fuzz-${opts.seed}-${lastFail.finding.kind}`;
  const target = opts.target.kind === 'stdio' ? [opts.target.command, ...opts.target.args].join(' ') : opts.target.url;
  const { transcript, metadata } = writeFinding(opts.outDir, base, lines, {
    tool: 'cgp-conformance fuzz',
    seed: opts.seed,
    failed_case: failedCase,
    finding: lastFail.finding,
    shrink_steps: shrinkSteps,
    reproduced_by_replay: null,
    target,
    replay: '',
  });
  const replayCommand = opts.replayCommand(transcript);
  let reproduced = false;
  if (!(opts.target.kind === 'http' && lastFail.finding.kind === 'crash')) {
    const again = await replayLines(opts.target, sessionOpts, lines);
    reproduced = again.kind === 'finding';
  }
  updateFinding(metadata, { replay: replayCommand, reproduced_by_replay: reproduced });
  return {
    finding: lastFail.finding,
    failedCase,
    inputs: lastFail.inputs,
    transcriptPath: transcript,
    metadataPath: metadata,
    lines: lines.hostile.length + 2,
    shrinkSteps,
    replayCommand,
    reproduced,
  };
}

/** Run the property over `opts.runs` cases; shrink and record the first finding. */
export async function runFuzz(opts: FuzzRunOptions): Promise<FuzzRunResult> {
  const t0 = Date.now();
  const perArea = Object.fromEntries(AREAS.map((a) => [a, 0])) as Record<Area, number>;
  const result: FuzzRunResult = {
    seed: opts.seed,
    cases: 0,
    inputs: 0,
    perArea,
    linesSent: 0,
    bytesSent: 0,
    sessions: 0,
    elapsedMs: 0,
    budgetExhausted: false,
    peakRssBytes: 0,
  };
  const sessionOpts: SessionOptions = {
    timeoutMs: opts.timeoutMs,
    handshakeTimeoutMs: opts.handshakeTimeoutMs,
    ...(opts.maxLineBytes !== undefined ? { maxLineBytes: opts.maxLineBytes } : {}),
  };
  const deadline = opts.timeBudgetMs !== undefined ? t0 + opts.timeBudgetMs : Infinity;
  const arb = fuzzCase(opts.assumedMaxLineBytes !== undefined ? { maxLineBytes: opts.assumedMaxLineBytes } : {});
  let shared: FuzzSession | undefined;
  let probeCounter = 0;
  let fatal: unknown;
  let lastProgress = Date.now();
  const every = opts.progressEveryMs ?? 2000;

  const open = async (): Promise<FuzzSession> => {
    result.sessions++;
    return openFuzzSession(opts.target, sessionOpts);
  };

  // State of the shrink phase.
  let shrinking = false;
  let shrinkDeadline = 0;
  let shrinkSteps = 0;
  let first: { finding: Finding; caseIndex: number } | undefined;
  let lastFail: { inputs: FuzzInput[]; finding: Finding; probeId: string } | undefined;

  const evaluate = async (session: FuzzSession, inputs: FuzzInput[]): Promise<{ finding: Finding | null; probeId: string }> => {
    const probeId = `fuzz-probe-${++probeCounter}`;
    const groups = groupsOf(inputs);
    const finding = await session.exchange(groups, probeLine(probeId), probeId);
    return { finding, probeId };
  };

  const property = fc.asyncProperty(arb, async (inputs) => {
    if (fatal !== undefined) return true;
    if (!shrinking) {
      if (Date.now() > deadline) {
        result.budgetExhausted = true;
        return true;
      }
      result.cases++;
      for (const i of inputs) {
        result.inputs++;
        result.perArea[i.area]++;
        result.linesSent += i.lines.length;
        for (const l of i.lines) result.bytesSent += lineLength(l) + 1;
      }
      try {
        shared ??= await open();
        const { finding, probeId } = await evaluate(shared, inputs);
        if (Date.now() - lastProgress >= every) {
          lastProgress = Date.now();
          const rate = Math.round((result.cases * 1000) / Math.max(1, Date.now() - t0));
          opts.progress?.(`fuzz: ${result.cases}/${opts.runs} cases, ${result.inputs} inputs, ${rate} cases/s, seed ${opts.seed}`);
        }
        if (finding === null) return true;
        first = { finding, caseIndex: result.cases };
        lastFail = { inputs, finding, probeId };
        shrinking = true;
        shrinkDeadline = Date.now() + (opts.shrinkBudgetMs ?? 60_000);
        opts.progress?.(`fuzz: case ${result.cases} failed — ${finding.message}`);
        opts.progress?.('fuzz: shrinking (each candidate against a fresh session)…');
        await shared.close().catch(() => undefined);
        shared = undefined;
        return false;
      } catch (err) {
        fatal = err;
        return true;
      }
    }
    // Shrinking: a crash over HTTP leaves nothing to run candidates against.
    if (opts.target.kind === 'http' && first?.finding.kind === 'crash') return true;
    if (Date.now() > shrinkDeadline) return true;
    shrinkSteps++;
    let session: FuzzSession;
    try {
      session = await open();
    } catch {
      return true; // a candidate we cannot even start is no evidence either way
    }
    try {
      const { finding, probeId } = await evaluate(session, inputs);
      if (finding === null) return true;
      lastFail = { inputs, finding, probeId };
      return false;
    } catch {
      return true;
    } finally {
      await session.close().catch(() => undefined);
    }
  });

  try {
    for (let chunk = 0; result.cases < opts.runs && !result.budgetExhausted && fatal === undefined && !first; chunk++) {
      const numRuns = Math.min(CHUNK, opts.runs - result.cases);
      const seed = (opts.seed + chunk * CHUNK_SEED_STEP) >>> 0;
      await fc.check(property, { numRuns, seed, endOnFailure: false });
    }
  } finally {
    await shared?.close().catch(() => undefined);
  }

  if (fatal !== undefined) {
    if (fatal instanceof HandshakeFailed) {
      result.handshakeFailure = { message: fatal.message, neverAnswered: fatal.neverAnswered };
    } else {
      throw fatal;
    }
  }

  if (first && lastFail) result.finding = await recordFinding(opts, sessionOpts, first.caseIndex, lastFail, shrinkSteps);
  result.elapsedMs = Date.now() - t0;
  result.peakRssBytes = process.resourceUsage().maxRSS * 1024;
  return result;
}

export type ReplayOutcome = { kind: 'finding'; finding: Finding } | { kind: 'answered' } | { kind: 'handshake-failed'; message: string; neverAnswered: boolean };

/** Send a transcript to a fresh session: handshake line, every hostile line, then the probe. */
export async function replayLines(target: FuzzTarget, opts: SessionOptions, lines: TranscriptLines): Promise<ReplayOutcome> {
  let session: FuzzSession;
  try {
    session = await openFuzzSession(target, opts, lines.handshake);
  } catch (err) {
    if (err instanceof HandshakeFailed) return { kind: 'handshake-failed', message: err.message, neverAnswered: err.neverAnswered };
    throw err;
  }
  try {
    const finding = await session.exchange(
      lines.hostile.map((l) => [l]),
      lines.probe,
      lines.probeId,
    );
    return finding ? { kind: 'finding', finding } : { kind: 'answered' };
  } finally {
    await session.close().catch(() => undefined);
  }
}
