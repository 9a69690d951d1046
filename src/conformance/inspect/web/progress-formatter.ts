/**
 * A cucumber formatter for the inspector's "run the suite" (docs/inspector.md): one JSON line per finished
 * scenario on the formatter's stream — {"type":"scenario","done":n,"total":m,"name":…,"uri":…,"status":…} —
 * so the page shows progress live as scenarios finish. The status is the worst step status (cucumber's).
 */
interface FormatterContext {
  on(event: 'message', handler: (message: Record<string, unknown>) => void): void;
  write(text: string): void;
}

type Obj = Record<string, unknown>;
const RANK = ['PASSED', 'SKIPPED', 'PENDING', 'UNDEFINED', 'AMBIGUOUS', 'UNKNOWN', 'FAILED'];

export default {
  type: 'formatter' as const,
  formatter({ on, write }: FormatterContext): void {
    const pickles = new Map<string, { name: string; uri: string }>();
    const cases = new Map<string, string>();
    const started = new Map<string, { pickle: string; worst: string }>();
    let done = 0;
    on('message', (m) => {
      const pickle = m.pickle as Obj | undefined;
      if (pickle) pickles.set(String(pickle.id), { name: String(pickle.name), uri: String(pickle.uri) });
      const testCase = m.testCase as Obj | undefined;
      if (testCase) cases.set(String(testCase.id), String(testCase.pickleId));
      const s = m.testCaseStarted as Obj | undefined;
      if (s) started.set(String(s.id), { pickle: cases.get(String(s.testCaseId)) ?? '', worst: 'PASSED' });
      const step = m.testStepFinished as Obj | undefined;
      if (step) {
        const c = started.get(String(step.testCaseStartedId));
        const status = String((step.testStepResult as Obj | undefined)?.status ?? 'UNKNOWN');
        if (c && RANK.indexOf(status) > RANK.indexOf(c.worst)) c.worst = status;
      }
      const f = m.testCaseFinished as Obj | undefined;
      if (f && f.willBeRetried !== true) {
        const c = started.get(String(f.testCaseStartedId));
        const p = pickles.get(c?.pickle ?? '');
        done++;
        write(`${JSON.stringify({ type: 'scenario', done, total: cases.size, name: p?.name ?? '?', uri: p?.uri ?? '', status: (c?.worst ?? 'UNKNOWN').toLowerCase() })}\n`);
      }
    });
  },
};
