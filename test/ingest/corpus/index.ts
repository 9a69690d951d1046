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
  /** Texts the served frames must NOT contain (a misreading, e.g. a time range made of MAC bytes). */
  absent?: string[];
  /** Part of the wider corpus (issue round three): written by ./make-wider.ts. */
  wider?: boolean;
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
    facts: [
      '-  private readonly timeoutMs = 30_000;',
      '+  private readonly timeoutMs = 3_000;',
      '+      throw new RetryExhaustedError(url, attempt);',
      'diff --git a/src/net/pool.ts b/src/net/pool.ts',
      '+- client: request timeout lowered to 3 s',
    ],
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
    facts: [
      '/v1/search ×150, 14:00:02–14:05:20, duration 9ms–4.9s',
      'path=/v1/search status=200 duration=4183ms',
      'path=/v1/search status=200 duration=4862ms',
      'path=/v1/suggest status=200 duration=4882ms',
      'median 41ms',
    ],
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
    facts: [
      'Servlet.service() for servlet [dispatcherServlet] threw exception',
      'DataAccessResourceFailureException: Unable to acquire JDBC Connection',
      'Caused by: org.postgresql.util.PSQLException: Connection to db.internal:5432 refused',
      '×60',
    ],
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
  // ── the wider corpus (./make-wider.ts): structured output that is not a log ──
  {
    file: 'metrics.prom',
    kind: 'Prometheus exposition',
    intent: 'why is the disk space alert firing',
    facts: ['node_filesystem_avail_bytes{device="/dev/nvme1n1",fstype="xfs",mountpoint="/var/lib/postgresql"} 3.7748736e+07', 'node_filesystem_avail_bytes', 'node_cpu_seconds_total'],
    wider: true,
  },
  {
    file: 'terraform-plan.txt',
    kind: 'terraform plan',
    intent: 'will this plan destroy anything',
    facts: [
      '# aws_db_instance.orders must be replaced',
      '-/+ resource "aws_db_instance" "orders" {',
      'storage_encrypted       = false -> true # forces replacement',
      'Plan: 1 to add, 19 to change, 1 to destroy.',
    ],
    wider: true,
  },
  {
    file: 'k6-summary.txt',
    kind: 'k6 load-test summary',
    intent: 'which endpoint is slow under load',
    facts: ['{ name:checkout }', 'p(95)=8.41s', '✗ checkout status is 200', 'http_req_failed................: 1.28%'],
    wider: true,
  },
  {
    file: 'users.json',
    kind: 'JSON array of objects (pretty-printed)',
    intent: 'which account is locked out',
    facts: ['"status": "locked"', '"id": 10438', '"failed_logins": 31', '$[38]'],
    wider: true,
  },
  {
    file: 'ec2-instances.json',
    kind: 'nested JSON records (describe-instances)',
    intent: 'which instance is not running',
    facts: ['"Name": "stopped"', '"InstanceId": "i-04774441f2712e68a"', 'Server.InsufficientInstanceCapacity', '$.Reservations[8].Instances[0]'],
    wider: true,
  },
  {
    file: 'df-h.txt',
    kind: 'df -h (fixed-width table)',
    intent: 'which disk is full',
    facts: ['Filesystem      Size  Used Avail Use% Mounted on', '/dev/nvme1n1    492G  492G    0G 100% /var/lib/postgresql', 'Use%'],
    wider: true,
  },
  {
    file: 'iostat-x.txt',
    kind: 'iostat -x (repeated samples)',
    intent: 'which device is saturated',
    facts: ['Device            r/s     rkB/s', 'nvme1n1          0.00', '771.60 100.00', '187.31'],
    wider: true,
  },
  {
    file: 'ansible-run.txt',
    kind: 'ansible run + PLAY RECAP',
    intent: 'which host failed and why',
    facts: ['fatal: [web-23.prod]: FAILED!', 'unknown directive \\"proxy_buffering_off\\"', 'web-23.prod               : ok=3    changed=2    unreachable=0    failed=1'],
    wider: true,
  },
  {
    file: 'kubectl-pods-wide.txt',
    kind: 'kubectl get pods -o wide',
    intent: 'which pod is unhealthy',
    facts: ['NAME                                   READY   STATUS', 'payments-gbhekcadm-vzndd               0/1     CrashLoopBackOff   47 (2m13s ago)', 'Running ×69'],
    wider: true,
  },
  {
    file: 'mysql-slow.log',
    kind: 'MySQL slow query log',
    intent: 'which query is the slowest',
    facts: [
      '# Time: 2026-12-01T09:15:53.211220Z',
      '# User@Host: report[report] @  [10.20.6.180]',
      '# Query_time: 41.837214  Lock_time: 0.000471 Rows_sent: 12  Rows_examined: 48213996',
      'SELECT c.country, SUM(o.total) FROM orders o',
    ],
    wider: true,
  },
  {
    file: 'git-log-stat.txt',
    kind: 'git log --stat',
    intent: 'which commit changed src/billing/tax.ts',
    facts: ['commit 9c41e7a0b2d3f4e5a6b7c8d9e0f1a2b3c4d5e6f7\nAuthor: Kofi Mensah <kofi@acme.dev>', 'src/billing/tax.ts', 'billing: round VAT half-up per line, not per invoice', '45 records'],
    wider: true,
  },
  {
    file: 'docker-ps.txt',
    kind: 'docker ps -a',
    intent: 'which container died',
    facts: ['CONTAINER ID   IMAGE', 'Exited (137) 4 minutes ago', 'shop-worker-3', '3ad924aaa182'],
    wider: true,
  },
  {
    file: 'npm-audit.txt',
    kind: 'npm audit',
    intent: 'is there a critical vulnerability',
    facts: ['Severity: critical', 'path-to-regexp  <6.18.7', 'node_modules/express/node_modules/path-to-regexp', '12 vulnerabilities (2 low, 6 moderate, 3 high, 1 critical)'],
    wider: true,
  },
  {
    file: 'systemctl-status.txt',
    kind: 'systemctl status',
    intent: 'why did nginx fail to start',
    facts: ['Active: failed (Result: exit-code)', 'bind() to 0.0.0.0:443 failed (98: Address already in use)', "Failed with result 'exit-code'", 'nginx: [emerg] still could not bind()'],
    wider: true,
  },
  {
    file: 'top.txt',
    kind: 'top (batch)',
    intent: 'what is eating the cpu',
    facts: ['load average: 7.91, 6.40, 4.02', '    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND', '398.0', 'imgresize'],
    wider: true,
  },
  {
    file: 'ss-tanp.txt',
    kind: 'ss -tanp',
    intent: 'why are connections piling up',
    facts: ['CLOSE-WAIT ×22', '10.20.4.17:8443', 'State      Recv-Q Send-Q'],
    wider: true,
  },
  {
    file: 'ip-neigh.txt',
    kind: 'ip neigh (MAC addresses)',
    intent: 'which neighbour is unreachable',
    facts: ['10.20.0.77 dev eth0 FAILED', 'REACHABLE', 'STALE'],
    absent: ['08:90:08–41:02:08', '08:90:08–'],
    wider: true,
  },
  {
    file: 'payments.csv',
    kind: 'CSV export (payments)',
    intent: 'anything unusual in these payments',
    facts: ['payment_id,created_at,customer,method,amount,currency,status', 'pay_55d4d4955f,2026-11-06T13:23:33Z,cus_57c32c7c,card,-18450.00,EUR,refunded', '[150 rows × 7 columns]'],
    wider: true,
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
  /** `absent` texts the served frames do contain (a misreading). */
  misread: string[];
  /** The served frames' content, joined (what a reader of the prompt sees). */
  served: string;
}

/** The facts of a paste that a served text contains. */
export function factsIn(p: Paste, served: string): string[] {
  return p.facts.filter((f) => served.includes(f));
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
    misread: (p.absent ?? []).filter((a) => served.includes(a)),
    served,
  };
}
