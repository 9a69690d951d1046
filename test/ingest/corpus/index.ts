/**
 * The paste corpus: realistic pastes of many kinds (written here: ./make.ts made ./pastes/), each with
 * the question a person would ask of it and the facts a reader needs from it to answer. A fact is a
 * text that the served frames (compact, the provider's rank order) must contain — verbatim from the
 * paste, or the summary a reader reads it from (a count, a line range). test/ingest/corpus.test.ts
 * fails when a served frame loses one; bench/ingest.ts prints the table.
 *
 * Kept under test/ (not fixtures/): the corpus is test data, and fixtures/ is shipped in the package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = join(fileURLToPath(new URL('.', import.meta.url)), 'pastes');

export interface Paste {
  file: string;
  /** What it is, for the table. */
  kind: string;
  intent: string;
  facts: string[];
}

export const CORPUS: Paste[] = [
  {
    file: 'nginx-access.log',
    kind: 'nginx combined access log',
    intent: 'why are orders failing',
    facts: ['GET /api/v2/orders → 200 ×212', '→ 502 ×40, 10:04:10–10:04:49 (lines 251–290)', '"GET /api/v2/orders HTTP/1.1" 502', 'burst of 40 status 502', 'lines 252–289'],
  },
  {
    file: 'service.jsonl',
    kind: 'JSON-lines service log',
    intent: 'which request failed and why',
    facts: ['"request_id":"req-7d41c9e2"', 'payment provider timeout after 3 attempts', '"status":504', 'payment provider slow, retrying', '×300'],
  },
  {
    file: 'syslog-oom.log',
    kind: 'syslog',
    intent: 'why did the worker restart',
    facts: ['Killed process 48213 (java)', 'invoked oom-killer', 'status=9/KILL', "Failed with result 'oom-kill'"],
  },
  {
    file: 'k8s-events.txt',
    kind: 'Kubernetes event stream',
    intent: 'why does the api pod keep restarting',
    facts: ['Error: CrashLoopBackOff', 'Back-off restarting failed container api', 'api-7d9f8b6c4-x2x9k', 'failed liveness probe'],
  },
  {
    file: 'ci-jest.txt',
    kind: 'CI output (jest)',
    intent: 'which test is failing',
    facts: ['✕ applies discount code SAVE10 to the order total', 'Expected: 90', 'Received: 100', 'src/cart/cart.test.ts:88:19', 'Tests:       1 failed, 419 passed, 420 total'],
  },
  {
    file: 'change.diff',
    kind: 'unified diff',
    intent: 'review this change: what does it do to timeouts',
    facts: ['-  private readonly timeoutMs = 30_000;', '+  private readonly timeoutMs = 3_000;', '+      throw new RetryExhaustedError(url, attempt);', 'diff --git a/src/net/pool.ts b/src/net/pool.ts', '+- client: request timeout lowered to 3 s'],
  },
  {
    file: 'explain.txt',
    kind: 'SQL EXPLAIN ANALYZE',
    intent: 'why is this query slow',
    facts: ['Seq Scan on orders o', 'Filter: (customer_id = 42)', 'Rows Removed by Filter: 11999988', 'Execution Time: 1840.512 ms'],
  },
  {
    file: 'invoices.csv',
    kind: 'CSV export',
    intent: 'what is in this export',
    facts: ['[200 rows × 6 columns]', 'invoice_id text', 'amount float', 'status text'],
  },
  {
    file: 'api-logfmt.log',
    kind: 'logfmt',
    intent: 'why is search slow sometimes',
    facts: ['/v1/search ×150, 14:00:02–14:05:20, duration 9ms–4.9s', 'path=/v1/search status=200 duration=4183ms', 'path=/v1/search status=200 duration=4862ms', 'path=/v1/suggest status=200 duration=4882ms', 'median 41ms'],
  },
  {
    file: 'compose-logs.txt',
    kind: 'container logs (compose)',
    intent: 'why can the api not reach the database',
    facts: ['FATAL:  password authentication failed for user "app"', 'SQLSTATE 28P01', 'pg_hba.conf line 99'],
  },
  {
    file: 'strace.txt',
    kind: 'strace',
    intent: "why can't it find its config",
    facts: ['/etc/shop/shopd.yaml', 'ENOENT (No such file or directory)', 'cannot read config /etc/shop/shopd.yaml', '+++ exited with 78 +++'],
  },
  {
    file: 'spring-exception.log',
    kind: 'application log + Java exception',
    intent: 'why do order requests fail',
    facts: ['Servlet.service() for servlet [dispatcherServlet] threw exception', 'DataAccessResourceFailureException: Unable to acquire JDBC Connection', 'Caused by: org.postgresql.util.PSQLException: Connection to db.internal:5432 refused', '×60'],
  },
  {
    file: 'traceback.txt',
    kind: 'Python traceback (chained)',
    intent: 'why does the invoice pdf fail',
    facts: ["KeyError: 'customer_id'", 'app.errors.InvoiceDataError: invoice INV-20260113 has no customer', 'File "/srv/billing/app/invoices.py", line 91, in render_invoice'],
  },
  {
    file: 'go-panic.txt',
    kind: 'Go panic + goroutines',
    intent: 'why did the server crash',
    facts: ['panic: runtime error: invalid memory address or nil pointer dereference', 'api.(*Server).handleOrder', '/build/internal/api/orders.go:117'],
  },
  {
    file: 'npm-eresolve.txt',
    kind: 'npm error',
    intent: 'why does npm install fail',
    facts: ['ERESOLVE unable to resolve dependency tree', 'peer react@"^17.0.0" from react-datepicker@4.8.0', 'Found: react@18.3.1'],
  },
  {
    file: 'gha-build.log',
    kind: 'GitHub Actions job log',
    intent: 'why did the build fail',
    facts: ["src/cart/totals.ts(42,7): error TS2322: Type 'string' is not assignable to type 'number'.", '##[error]Process completed with exit code 2.', 'npm http fetch'],
  },
  {
    file: 'postgres.log',
    kind: 'PostgreSQL server log',
    intent: 'why did the reservation transaction abort',
    facts: ['ERROR:  deadlock detected', 'Process 4412 waits for ShareLock on transaction 88121; blocked by process 4419.', "UPDATE stock SET reserved = reserved + 1 WHERE sku = 'SKU-1182'"],
  },
  {
    file: 'apache-common.log',
    kind: 'Apache common access log',
    intent: 'are logins failing',
    facts: ['POST /login → 302 ×67', '→ 500 ×5, 16:02:12–16:14:03', '"POST /login HTTP/1.1" 500 531', 'L212 '],
  },
  {
    file: 'describe-pod.txt',
    kind: 'kubectl describe pod',
    intent: 'why is the pod not ready',
    facts: ['Reason:       CrashLoopBackOff', 'Reason:       OOMKilled', 'Exit Code:    137', 'memory:  256Mi'],
  },
  {
    file: 'journal-restarts.log',
    kind: 'systemd journal',
    intent: 'why does ingestd keep restarting',
    facts: ['queue "events" unreachable: dial tcp 10.2.0.30:5672: connect: connection refused', 'error recurring ×9', 'status=1/FAILURE', 'restart counter is at <number>'],
  },
  {
    file: 'pytest.txt',
    kind: 'CI output (pytest)',
    intent: 'which test fails',
    facts: ["FAILED tests/test_tax.py::test_rounds_eur_17 - AssertionError: assert Decimal('3.79') == Decimal('3.80')", '1 failed, 239 passed', 'tests/test_tax.py:88'],
  },
  {
    file: 'maven-build.txt',
    kind: 'Maven build output',
    intent: 'why does the build fail',
    facts: ['CartService.java:[142,27] cannot find symbol', 'symbol:   method applyVoucher(com.acme.shop.cart.Voucher)', 'BUILD FAILURE'],
  },
];

export function pasteBytes(p: Paste): Buffer {
  return readFileSync(join(CORPUS_DIR, p.file));
}

export interface Evaluation {
  paste: Paste;
  /** The block kinds ingest recognised, in paste order (`log`, `stack+prose`, …). */
  recognised: string;
  rawTokens: number;
  servedTokens: number;
  kept: string[];
  missing: string[];
  /** The served frames' content, joined (what a reader of the prompt sees). */
  served: string;
}

/** Ingest one paste with its intent and check its facts against the served (compact) frames. */
export async function evaluate(p: Paste): Promise<Evaluation> {
  const { ingest } = await import('../../../src/ingest/index.js');
  const bytes = pasteBytes(p);
  const r = ingest({ intent: p.intent, attachments: [{ name: p.file, content: bytes }] });
  const served = r.frames.map((f) => f.content ?? '').join('\n');
  const kinds: string[] = [];
  for (const e of r.report) if (e.kind !== 'attachment' && !kinds.includes(e.kind)) kinds.push(e.kind);
  return {
    paste: p,
    recognised: kinds.join('+'),
    rawTokens: Math.ceil(bytes.byteLength / 4),
    servedTokens: r.frames.reduce((n, f) => n + f.token_cost, 0),
    kept: p.facts.filter((f) => served.includes(f)),
    missing: p.facts.filter((f) => !served.includes(f)),
    served,
  };
}
