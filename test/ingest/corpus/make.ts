/**
 * Writes the paste corpus (test/ingest/corpus/pastes/) — realistic pastes written for these tests,
 * deterministic (seeded). The committed files are the corpus; this script is how they were made:
 *
 *   npx tsx test/ingest/corpus/make.ts
 *
 * What each paste is for, and the facts a reader needs from it, are in ./index.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from '../../../src/util/prng.js';

const DIR = join(fileURLToPath(new URL('.', import.meta.url)), 'pastes');
const rnd = prng(21);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(0, 15)]).join('');
const two = (n: number) => String(n).padStart(2, '0');
const clock = (sec: number) => `${two(Math.floor(sec / 3600) % 24)}:${two(Math.floor(sec / 60) % 60)}:${two(sec % 60)}`;
const iso = (sec: number, ms = int(0, 999)) => `2026-12-01T${clock(sec)}.${String(ms).padStart(3, '0')}Z`;
const files: Record<string, string> = {};
const put = (name: string, lines: string[] | string) => {
  files[name] = typeof lines === 'string' ? lines : `${lines.join('\n')}\n`;
};

const UAS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'okhttp/4.12.0',
  'shop-ios/5.3.1 (iPhone; iOS 18.1)',
];
const IPS = Array.from({ length: 14 }, () => `10.${int(0, 3)}.${int(0, 255)}.${int(1, 254)}`);

// 1. nginx combined access log: 400 lines, one per second from 10:00:00; lines 251–290 a 502 burst on
//    GET /api/v2/orders; 212 other GET /api/v2/orders → 200.
{
  const out: string[] = [];
  const other = ['/api/v2/cart', '/healthz', '/static/app.3f9a1c.js', '/api/v2/users/me', '/api/v2/catalog?page=2'];
  // choose which non-burst lines are orders-200 (212 of the 360)
  const slots = Array.from({ length: 400 }, (_, i) => i + 1).filter((n) => n < 251 || n > 290);
  const orderLines = new Set<number>();
  while (orderLines.size < 212) orderLines.add(pick(slots));
  for (let n = 1; n <= 400; n++) {
    const sec = 10 * 3600 + (n - 1);
    const ts = `[01/Dec/2026:${clock(sec)} +0000]`;
    const ip = pick(IPS);
    const ua = pick(UAS);
    let req: string;
    let status: number;
    let bytes: number;
    if (n >= 251 && n <= 290) {
      req = 'GET /api/v2/orders HTTP/1.1';
      status = 502;
      bytes = 157;
    } else if (orderLines.has(n)) {
      req = 'GET /api/v2/orders HTTP/1.1';
      status = 200;
      bytes = int(1800, 5200);
    } else {
      const p = pick(other);
      req = `${p === '/api/v2/cart' && rnd() < 0.4 ? 'POST' : 'GET'} ${p} HTTP/1.1`;
      status = p === '/healthz' ? 200 : rnd() < 0.06 ? 304 : 200;
      bytes = status === 304 ? 0 : int(80, 9000);
    }
    out.push(`${ip} - - ${ts} "${req}" ${status} ${bytes} "https://shop.example.com/" "${ua}"`);
  }
  put('nginx-access.log', out);
}

// 2. JSON-lines service log: 300 requests, one failing request id.
{
  const out: string[] = [];
  const routes = ['/checkout', '/cart', '/catalog', '/session'];
  for (let n = 1; n <= 300; n++) {
    const sec = 9 * 3600 + 15 * 60 + n * 2;
    const id = `req-${hex(8)}`;
    if (n === 187) {
      out.push(JSON.stringify({ ts: iso(sec - 1), level: 'warn', msg: 'payment provider slow, retrying', request_id: 'req-7d41c9e2', route: '/checkout', attempt: 2 }));
      out.push(JSON.stringify({ ts: iso(sec), level: 'error', msg: 'payment provider timeout after 3 attempts', request_id: 'req-7d41c9e2', route: '/checkout', status: 504, duration_ms: 9012 }));
      continue;
    }
    out.push(JSON.stringify({ ts: iso(sec), level: 'info', msg: 'request completed', request_id: id, route: pick(routes), status: 200, duration_ms: int(8, 120) }));
  }
  put('service.jsonl', out);
}

// 3. syslog with an OOM kill.
{
  const out: string[] = [];
  let sec = 3 * 3600;
  const host = 'worker-3';
  for (let n = 1; n <= 240; n++) {
    sec += int(1, 9);
    const t = `Dec  1 ${clock(sec)}`;
    if (n === 170) {
      out.push(`${t} ${host} kernel: [812345.112233] java invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0`);
      out.push(`${t} ${host} kernel: [812345.118812] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/system.slice/worker.service,task=java,pid=48213,uid=1001`);
      out.push(
        `${t} ${host} kernel: [812345.118990] Memory cgroup out of memory: Killed process 48213 (java) total-vm:8912344kB, anon-rss:4190212kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:9120kB oom_score_adj:0`,
      );
      out.push(`${t} ${host} systemd[1]: worker.service: Main process exited, code=killed, status=9/KILL`);
      out.push(`${t} ${host} systemd[1]: worker.service: Failed with result 'oom-kill'.`);
      out.push(`${t} ${host} systemd[1]: worker.service: Scheduled restart job, restart counter is at 1.`);
      continue;
    }
    const r = rnd();
    if (r < 0.35) out.push(`${t} ${host} CRON[${int(20000, 29999)}]: (root) CMD (/usr/local/bin/flush-metrics --quiet)`);
    else if (r < 0.6) out.push(`${t} ${host} sshd[${int(1000, 1999)}]: Accepted publickey for deploy from ${pick(IPS)} port ${int(40000, 60000)} ssh2: ED25519 SHA256:${hex(10)}`);
    else if (r < 0.85) out.push(`${t} ${host} worker[48213]: processed batch ${int(1000, 9999)} in ${int(80, 400)}ms`);
    else out.push(`${t} ${host} systemd[1]: Started Session ${int(100, 999)} of User deploy.`);
  }
  put('syslog-oom.log', out);
}

// 4. Kubernetes event stream (kubectl get events -w) with a CrashLoopBackOff.
{
  const out: string[] = ['LAST SEEN   TYPE      REASON              OBJECT                              MESSAGE'];
  const pods = ['web-5c8d7b9f6-2kq8n', 'web-5c8d7b9f6-7xw4r', 'worker-6f9c8d-bb2lp'];
  for (let n = 0; n < 70; n++) {
    const p = pick(pods);
    const ago = `${70 - n}s`.padEnd(11);
    const r = rnd();
    if (r < 0.4) out.push(`${ago} Normal    Pulled              pod/${p}             Container image "registry.example.com/${p.split('-')[0]}:1.14.2" already present on machine`);
    else if (r < 0.7) out.push(`${ago} Normal    Scheduled           pod/${p}             Successfully assigned prod/${p} to node-${int(1, 6)}`);
    else out.push(`${ago} Normal    Started             pod/${p}             Started container ${p.split('-')[0]}`);
    if (n === 40 || n === 52 || n === 64) {
      out.push(
        `${ago} Warning   BackOff             pod/api-7d9f8b6c4-x2x9k             Back-off restarting failed container api in pod api-7d9f8b6c4-x2x9k_prod(4c1f0e7a-2b7d-4d7e-9a51-0f3c2d9b8e11)`,
      );
    }
    if (n === 38) out.push(`${ago} Normal    Killing             pod/api-7d9f8b6c4-x2x9k             Container api failed liveness probe, will be restarted`);
  }
  out.push('0s          Warning   Failed              pod/api-7d9f8b6c4-x2x9k             Error: CrashLoopBackOff');
  put('k8s-events.txt', out);
}

// 5. CI output (jest): one failing test among 420 passing.
{
  const out: string[] = ['> shop-web@5.3.1 test', '> jest --ci', ''];
  const suites = ['cart', 'checkout', 'catalog', 'session', 'search', 'profile'];
  let k = 0;
  for (const s of suites) {
    out.push(`PASS src/${s}/${s}.test.ts (${int(2, 9)}.${int(100, 999)} s)`);
    for (let i = 0; i < 70; i++) {
      k++;
      if (s === 'cart' && i === 33) {
        out.push(`  ✕ applies discount code SAVE10 to the order total (${int(20, 60)} ms)`);
        continue;
      }
      out.push(
        `  ✓ ${pick(['renders', 'updates', 'validates', 'persists', 'restores', 'formats'])} ${s} ${pick(['badge', 'state', 'input', 'price', 'list', 'header', 'totals'])} case ${k} (${int(1, 40)} ms)`,
      );
    }
  }
  out[3] = out[3]!.replace('PASS', 'FAIL');
  out.push('');
  out.push('  ● cart › applies discount code SAVE10 to the order total');
  out.push('');
  out.push('    expect(received).toBe(expected) // Object.is equality');
  out.push('');
  out.push('    Expected: 90');
  out.push('    Received: 100');
  out.push('');
  out.push('      86 |     cart.applyCode("SAVE10");');
  out.push('      87 |     const total = cart.total();');
  out.push('    > 88 |     expect(total).toBe(90);');
  out.push('         |                   ^');
  out.push('');
  out.push('      at Object.<anonymous> (src/cart/cart.test.ts:88:19)');
  out.push('');
  out.push('Test Suites: 1 failed, 5 passed, 6 total');
  out.push('Tests:       1 failed, 419 passed, 420 total');
  out.push('Time:        21.482 s');
  put('ci-jest.txt', out);
}

// 6. A unified diff: three files; the change that matters in the middle.
{
  const out: string[] = ['diff --git a/src/net/client.ts b/src/net/client.ts', 'index 3f1c2a9..8b7e0d4 100644', '--- a/src/net/client.ts', '+++ b/src/net/client.ts'];
  const ctx = (n: number, base: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        ` ${pick(['  const res = await fetch(url, opts);', '  if (!res.ok) throw new HttpError(res.status);', '  return res.json();', '  log.debug("request", { url });', '  // keep-alive agents are shared', '  const headers = { ...base, accept: "application/json" };', '}'])} // ${base + i}`,
    );
  out.push('@@ -12,9 +12,9 @@ export class Client {');
  out.push(...ctx(4, 12));
  out.push('-  private readonly timeoutMs = 30_000;');
  out.push('+  private readonly timeoutMs = 3_000;');
  out.push(...ctx(4, 17));
  out.push('@@ -88,7 +88,12 @@ export class Client {');
  out.push(...ctx(3, 88));
  out.push('+    if (attempt >= this.maxRetries) {');
  out.push('+      throw new RetryExhaustedError(url, attempt);');
  out.push('+    }');
  out.push('+    await sleep(backoff(attempt));');
  out.push('+    attempt++;');
  out.push(...ctx(4, 91));
  out.push('diff --git a/src/net/pool.ts b/src/net/pool.ts', 'index 1a2b3c4..5d6e7f8 100644', '--- a/src/net/pool.ts', '+++ b/src/net/pool.ts');
  for (let h = 0; h < 5; h++) {
    const at = 20 + h * 40;
    out.push(`@@ -${at},8 +${at},8 @@`);
    out.push(...ctx(3, at));
    out.push(`-  const size${h} = cfg.size${h} ?? 8;`);
    out.push(`+  const size${h} = cfg.size${h} ?? DEFAULT_SIZE;`);
    out.push(...ctx(3, at + 4));
  }
  out.push('diff --git a/CHANGELOG.md b/CHANGELOG.md', 'index 0e1d2c3..4b5a697 100644', '--- a/CHANGELOG.md', '+++ b/CHANGELOG.md');
  out.push('@@ -1,3 +1,4 @@', ' # Changelog', '+- client: request timeout lowered to 3 s; retries bounded by maxRetries', ' ', ' ## 5.3.0');
  put('change.diff', out);
}

// 7. SQL EXPLAIN ANALYZE (PostgreSQL).
put('explain.txt', [
  'EXPLAIN (ANALYZE, BUFFERS) SELECT o.id, o.total, c.email FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.customer_id = 42 ORDER BY o.created_at DESC LIMIT 20;',
  '                                                              QUERY PLAN',
  '-----------------------------------------------------------------------------------------------------------------------------------------',
  ' Limit  (cost=231912.44..231912.49 rows=20 width=52) (actual time=1838.211..1838.220 rows=12 loops=1)',
  '   Buffers: shared hit=2112 read=96120',
  '   ->  Sort  (cost=231912.44..231912.52 rows=31 width=52) (actual time=1838.209..1838.214 rows=12 loops=1)',
  '         Sort Key: o.created_at DESC',
  '         Sort Method: quicksort  Memory: 26kB',
  '         ->  Nested Loop  (cost=0.42..231911.67 rows=31 width=52) (actual time=12.408..1838.150 rows=12 loops=1)',
  '               ->  Seq Scan on orders o  (cost=0.00..231652.00 rows=31 width=28) (actual time=12.371..1837.902 rows=12 loops=1)',
  '                     Filter: (customer_id = 42)',
  '                     Rows Removed by Filter: 11999988',
  '                     Buffers: shared hit=2064 read=96120',
  '               ->  Index Scan using customers_pkey on customers c  (cost=0.42..8.44 rows=1 width=32) (actual time=0.018..0.018 rows=1 loops=12)',
  '                     Index Cond: (id = 42)',
  '                     Buffers: shared hit=48',
  ' Planning Time: 0.412 ms',
  ' Execution Time: 1840.512 ms',
  '(18 rows)',
]);

// 8. A CSV export.
{
  const out = ['invoice_id,customer,amount,currency,status,created_at'];
  for (let n = 1; n <= 200; n++) {
    out.push(
      `INV-${20260000 + n},${pick(['acme', 'globex', 'initech', 'umbrella', 'hooli'])},${int(5, 4000)}.${two(int(0, 99))},EUR,${pick(['paid', 'paid', 'paid', 'open', 'refunded'])},2026-11-${two(int(1, 30))}`,
    );
  }
  put('invoices.csv', out);
}

// 9. logfmt with latency outliers on one route.
{
  const out: string[] = [];
  for (let n = 1; n <= 320; n++) {
    const sec = 14 * 3600 + n;
    const path = pick(['/v1/search', '/v1/search', '/v1/items', '/v1/suggest']);
    let d = int(9, 70);
    if (n === 77 || n === 141 || n === 142 || n === 260) d = int(4100, 4900);
    out.push(`time=${iso(sec)} level=info msg="request handled" method=GET path=${path} status=200 duration=${d}ms bytes=${int(300, 9000)} trace_id=${hex(16)}`);
  }
  put('api-logfmt.log', out);
}

// 10. docker compose logs: the database refuses the app's password.
{
  const out: string[] = [];
  let sec = 8 * 3600;
  for (let n = 0; n < 120; n++) {
    sec += int(0, 2);
    const r = rnd();
    if (n === 61) {
      out.push(`db-1     | ${iso(sec).replace('T', ' ').replace('Z', ' UTC')} [88] FATAL:  password authentication failed for user "app"`);
      out.push(`db-1     | ${iso(sec).replace('T', ' ').replace('Z', ' UTC')} [88] DETAIL:  Connection matched pg_hba.conf line 99: "host all all all scram-sha-256"`);
      out.push(`api-1    | ${iso(sec)} ERROR db: connect failed: FATAL: password authentication failed for user "app" (SQLSTATE 28P01)`);
      continue;
    }
    if (r < 0.5) out.push(`api-1    | ${iso(sec)} INFO http: GET ${pick(['/healthz', '/v1/items', '/v1/cart'])} 200 ${int(1, 30)}ms`);
    else if (r < 0.75) out.push(`cache-1  | ${int(1, 9)}:M 01 Dec 2026 ${clock(sec)}.${int(100, 999)} * ${int(1, 99)} changes in 60 seconds. Saving...`);
    else out.push(`db-1     | ${iso(sec).replace('T', ' ').replace('Z', ' UTC')} [${int(60, 99)}] LOG:  checkpoint complete: wrote ${int(3, 90)} buffers`);
  }
  put('compose-logs.txt', out);
}

// 11. strace: the config file is not where the program looks.
{
  const out: string[] = ['execve("/usr/local/bin/shopd", ["shopd", "--config", "/etc/shop/shopd.yaml"], 0x7ffd2b1c3e60 /* 24 vars */) = 0', 'brk(NULL)                               = 0x55d0c9a1f000'];
  for (const lib of ['libssl.so.3', 'libcrypto.so.3', 'libz.so.1', 'libc.so.6']) {
    out.push(`openat(AT_FDCWD, "/usr/local/lib/${lib}", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)`);
    out.push(`openat(AT_FDCWD, "/lib/x86_64-linux-gnu/${lib}", O_RDONLY|O_CLOEXEC) = 3`);
    out.push(`read(3, "\\177ELF\\2\\1\\1\\0\\0\\0\\0\\0\\0\\0\\0\\0\\3\\0>\\0\\1\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0"..., 832) = 832`);
    out.push(`mmap(NULL, ${int(100000, 900000)}, PROT_READ, MAP_PRIVATE|MAP_DENYWRITE, 3, 0) = 0x7f${hex(10)}`);
    out.push('close(3)                                = 0');
  }
  for (let i = 0; i < 120; i++) {
    const r = rnd();
    if (r < 0.4) out.push(`mmap(NULL, ${int(4096, 262144)}, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f${hex(10)}`);
    else if (r < 0.7) out.push(`futex(0x7f${hex(10)}, FUTEX_WAKE_PRIVATE, 1) = 0`);
    else out.push(`read(${int(4, 9)}, "${hex(12)}"..., 4096) = ${int(100, 4096)}`);
    if (i === 90) {
      out.push('openat(AT_FDCWD, "/etc/shop/shopd.yaml", O_RDONLY) = -1 ENOENT (No such file or directory)');
      out.push('write(2, "shopd: cannot read config /etc/shop/shopd.yaml: no such file or directory\\n", 75) = 75');
    }
  }
  out.push('exit_group(78)                          = ?');
  out.push('+++ exited with 78 +++');
  put('strace.txt', out);
}

// 12. A Spring Boot log with a Java exception and its cause.
{
  const out: string[] = [];
  let sec = 11 * 3600;
  for (let n = 0; n < 60; n++) {
    sec += int(0, 3);
    out.push(
      `2026-12-01 ${clock(sec)}.${String(int(0, 999)).padStart(3, '0')}  INFO 1 --- [nio-8080-exec-${int(1, 9)}] c.a.shop.web.OrderController        : GET /orders/${int(1000, 9999)} served in ${int(3, 60)} ms`,
    );
  }
  out.push(`2026-12-01 ${clock(sec + 1)}.004 ERROR 1 --- [nio-8080-exec-3] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] threw exception`);
  out.push(
    'org.springframework.dao.DataAccessResourceFailureException: Unable to acquire JDBC Connection; nested exception is org.hibernate.exception.JDBCConnectionException: Unable to acquire JDBC Connection',
  );
  for (let i = 0; i < 40; i++)
    out.push(
      `\tat org.springframework.${pick(['orm.jpa', 'transaction', 'aop.framework', 'web.servlet'])}.${pick(['JpaTransactionManager', 'TransactionInterceptor', 'ReflectiveMethodInvocation', 'FrameworkServlet'])}.${pick(['doBegin', 'invoke', 'proceed', 'service'])}(${pick(['JpaTransactionManager', 'TransactionInterceptor', 'ReflectiveMethodInvocation', 'FrameworkServlet'])}.java:${int(40, 900)})`,
    );
  out.push(
    'Caused by: org.postgresql.util.PSQLException: Connection to db.internal:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.',
  );
  for (let i = 0; i < 12; i++) out.push(`\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:${int(200, 400)})`);
  out.push('\t... 61 more');
  put('spring-exception.log', out);
}

// 13. A Python traceback with a chained exception.
put('traceback.txt', [
  'Traceback (most recent call last):',
  '  File "/srv/billing/app/invoices.py", line 88, in render_invoice',
  '    customer = record["customer_id"]',
  "KeyError: 'customer_id'",
  '',
  'During handling of the above exception, another exception occurred:',
  '',
  'Traceback (most recent call last):',
  '  File "/srv/billing/venv/lib/python3.12/site-packages/flask/app.py", line 1473, in wsgi_app',
  '    response = self.full_dispatch_request()',
  '  File "/srv/billing/venv/lib/python3.12/site-packages/flask/app.py", line 882, in full_dispatch_request',
  '    rv = self.handle_user_exception(e)',
  '  File "/srv/billing/venv/lib/python3.12/site-packages/flask/app.py", line 880, in full_dispatch_request',
  '    rv = self.dispatch_request()',
  '  File "/srv/billing/venv/lib/python3.12/site-packages/flask/app.py", line 865, in dispatch_request',
  '    return self.ensure_sync(self.view_functions[rule.endpoint])(**view_args)',
  '  File "/srv/billing/app/views.py", line 41, in invoice_pdf',
  '    html = render_invoice(invoice_id)',
  '  File "/srv/billing/app/invoices.py", line 91, in render_invoice',
  '    raise InvoiceDataError(f"invoice {invoice_id} has no customer") from None',
  'app.errors.InvoiceDataError: invoice INV-20260113 has no customer',
]);

// 14. A Go panic with goroutines.
{
  const out = [
    'panic: runtime error: invalid memory address or nil pointer dereference',
    '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6b2f1a]',
    '',
    'goroutine 48 [running]:',
    'github.com/acme/shop/internal/api.(*Server).handleOrder(0xc0001a2000, {0x8c1e40, 0xc0003b6000}, 0xc0002f4300)',
    '\t/build/internal/api/orders.go:117 +0x1ba',
    'net/http.HandlerFunc.ServeHTTP(0xc000010a80?, {0x8c1e40?, 0xc0003b6000?}, 0x0?)',
    '\t/usr/local/go/src/net/http/server.go:2220 +0x29',
    'github.com/acme/shop/internal/api.(*Server).withAuth.func1({0x8c1e40, 0xc0003b6000}, 0xc0002f4300)',
    '\t/build/internal/api/middleware.go:44 +0x1d3',
    'net/http.HandlerFunc.ServeHTTP(0x0?, {0x8c1e40?, 0xc0003b6000?}, 0x0?)',
    '\t/usr/local/go/src/net/http/server.go:2220 +0x29',
    'net/http.serverHandler.ServeHTTP({0xc0001b4000?}, {0x8c1e40?, 0xc0003b6000?}, 0x6?)',
    '\t/usr/local/go/src/net/http/server.go:3210 +0x8e',
    'net/http.(*conn).serve(0xc0001c6000, {0x8c2a10, 0xc0001a8120})',
    '\t/usr/local/go/src/net/http/server.go:2092 +0x5d0',
    'created by net/http.(*Server).Serve in goroutine 1',
    '\t/usr/local/go/src/net/http/server.go:3360 +0x485',
  ];
  for (let g = 0; g < 6; g++) {
    out.push(
      '',
      `goroutine ${60 + g} [IO wait]:`,
      'internal/poll.runtime_pollWait(0x7f3a1c2e5f28, 0x72)',
      '\t/usr/local/go/src/runtime/netpoll.go:351 +0x85',
      'internal/poll.(*pollDesc).wait(0xc000190080?, 0xc0001c0000?, 0x0)',
      '\t/usr/local/go/src/internal/poll/fd_poll_runtime.go:84 +0x27',
    );
  }
  put('go-panic.txt', out);
}

// 15. npm install failing on a peer dependency.
put('npm-eresolve.txt', [
  'npm ERR! code ERESOLVE',
  'npm ERR! ERESOLVE unable to resolve dependency tree',
  'npm ERR! ',
  'npm ERR! While resolving: shop-web@5.3.1',
  'npm ERR! Found: react@18.3.1',
  'npm ERR! node_modules/react',
  'npm ERR!   react@"^18.3.1" from the root project',
  'npm ERR! ',
  'npm ERR! Could not resolve dependency:',
  'npm ERR! peer react@"^17.0.0" from react-datepicker@4.8.0',
  'npm ERR! node_modules/react-datepicker',
  'npm ERR!   react-datepicker@"^4.8.0" from the root project',
  'npm ERR! ',
  'npm ERR! Fix the upstream dependency conflict, or retry',
  'npm ERR! this command with --force or --legacy-peer-deps',
  'npm ERR! to accept an incorrect (and potentially broken) dependency resolution.',
  'npm ERR! ',
  'npm ERR! For a full report see:',
  'npm ERR! /home/ci/.npm/_logs/2026-12-01T10_02_11_411Z-eresolve-report.txt',
  '',
  'npm ERR! A complete log of this run can be found in: /home/ci/.npm/_logs/2026-12-01T10_02_11_411Z-debug-0.log',
]);

// 16. A GitHub Actions job log: a TypeScript error fails the build.
{
  const out: string[] = [];
  let sec = 10 * 3600;
  const ts = () => `2026-12-01T${clock((sec += int(0, 1)))}.${hex(7).replace(/[a-f]/g, '1')}Z`;
  out.push(`${ts()} ##[group]Run npm ci`, `${ts()} npm ci`, `${ts()} shell: /usr/bin/bash -e {0}`, `${ts()} ##[endgroup]`);
  for (let i = 0; i < 90; i++)
    out.push(
      `${ts()} npm http fetch GET 200 https://registry.npmjs.org/${pick(['react', 'lodash', 'zod', 'vite', 'esbuild', 'typescript', 'jest'])}/-/${pick(['a', 'b', 'c'])}-${int(1, 9)}.${int(0, 20)}.${int(0, 9)}.tgz ${int(5, 300)}ms (cache miss)`,
    );
  out.push(`${ts()} added 1214 packages in 31s`, `${ts()} ##[group]Run npm run build`, `${ts()} > shop-web@5.3.1 build`, `${ts()} > tsc -p tsconfig.build.json && vite build`);
  out.push(`${ts()} src/cart/totals.ts(42,7): error TS2322: Type 'string' is not assignable to type 'number'.`);
  out.push(`${ts()} ##[error]Process completed with exit code 2.`);
  out.push(`${ts()} Post job cleanup.`);
  put('gha-build.log', out);
}

// 17. PostgreSQL server log with a deadlock.
{
  const out: string[] = [];
  let sec = 13 * 3600;
  for (let n = 0; n < 150; n++) {
    sec += int(0, 4);
    const t = `2026-12-01 ${clock(sec)}.${String(int(0, 999)).padStart(3, '0')} UTC`;
    if (n === 97) {
      out.push(`${t} [4412] ERROR:  deadlock detected`);
      out.push(`${t} [4412] DETAIL:  Process 4412 waits for ShareLock on transaction 88121; blocked by process 4419.`);
      out.push(`\tProcess 4419 waits for ShareLock on transaction 88117; blocked by process 4412.`);
      out.push(`${t} [4412] HINT:  See server log for query details.`);
      out.push(`${t} [4412] STATEMENT:  UPDATE stock SET reserved = reserved + 1 WHERE sku = 'SKU-1182'`);
      continue;
    }
    if (rnd() < 0.7)
      out.push(
        `${t} [${int(4000, 4500)}] LOG:  duration: ${int(1, 90)}.${int(100, 999)} ms  statement: SELECT ${pick(['id, qty', 'sku, price', 'count(*)'])} FROM ${pick(['stock', 'orders', 'prices'])} WHERE ${pick(['sku', 'id'])} = $1`,
      );
    else out.push(`${t} [${int(60, 80)}] LOG:  checkpoint starting: time`);
  }
  put('postgres.log', out);
}

// 18. Apache common log: scattered 500s on POST /login.
{
  const out: string[] = [];
  for (let n = 1; n <= 300; n++) {
    const sec = 16 * 3600 + n * 3;
    const t = `[01/Dec/2026:${clock(sec)} +0100]`;
    const bad = [44, 97, 160, 212, 281].includes(n);
    const req = bad ? 'POST /login HTTP/1.1' : pick(['GET / HTTP/1.1', 'GET /login HTTP/1.1', 'POST /login HTTP/1.1', 'GET /account HTTP/1.1', 'GET /favicon.ico HTTP/1.1']);
    const status = bad ? 500 : req.includes('favicon') ? 404 : req.startsWith('POST') ? 302 : 200;
    out.push(`${pick(IPS)} - ${rnd() < 0.3 ? 'alice' : '-'} ${t} "${req}" ${status} ${bad ? 531 : int(200, 8000)}`);
  }
  put('apache-common.log', out);
}

// 19. kubectl describe pod: OOMKilled, CrashLoopBackOff.
put('describe-pod.txt', [
  'Name:             api-7d9f8b6c4-x2x9k',
  'Namespace:        prod',
  'Node:             node-4/10.2.0.14',
  'Start Time:       Tue, 01 Dec 2026 09:58:02 +0000',
  'Labels:           app=api',
  '                  pod-template-hash=7d9f8b6c4',
  'Status:           Running',
  'IP:               10.244.3.17',
  'Controlled By:    ReplicaSet/api-7d9f8b6c4',
  'Containers:',
  '  api:',
  '    Image:          registry.example.com/api:2.8.0',
  '    Port:           8080/TCP',
  '    State:          Waiting',
  '      Reason:       CrashLoopBackOff',
  '    Last State:     Terminated',
  '      Reason:       OOMKilled',
  '      Exit Code:    137',
  '      Started:      Tue, 01 Dec 2026 10:11:40 +0000',
  '      Finished:     Tue, 01 Dec 2026 10:12:03 +0000',
  '    Ready:          False',
  '    Restart Count:  7',
  '    Limits:',
  '      memory:  256Mi',
  '    Requests:',
  '      cpu:        100m',
  '      memory:     128Mi',
  '    Liveness:     http-get http://:8080/healthz delay=10s timeout=1s period=10s #success=1 #failure=3',
  'Conditions:',
  '  Type              Status',
  '  Ready             False',
  '  ContainersReady   False',
  'Events:',
  '  Type     Reason     Age                  From     Message',
  '  ----     ------     ----                 ----     -------',
  '  Normal   Pulled     12m (x8 over 25m)    kubelet  Container image "registry.example.com/api:2.8.0" already present on machine',
  '  Warning  BackOff    2m (x61 over 24m)    kubelet  Back-off restarting failed container api in pod api-7d9f8b6c4-x2x9k_prod',
]);

// 20. systemd journal: a unit restarting in a loop.
{
  const out: string[] = [];
  let sec = 6 * 3600;
  for (let k = 1; k <= 9; k++) {
    for (let i = 0; i < 8; i++) {
      sec += int(1, 3);
      out.push(`Dec 01 ${clock(sec)} web-2 ingestd[${3100 + k}]: ingest batch ${int(100, 999)} ok (${int(10, 90)} records)`);
    }
    sec += 1;
    out.push(`Dec 01 ${clock(sec)} web-2 ingestd[${3100 + k}]: error: queue "events" unreachable: dial tcp 10.2.0.30:5672: connect: connection refused`);
    out.push(`Dec 01 ${clock(sec)} web-2 systemd[1]: ingestd.service: Main process exited, code=exited, status=1/FAILURE`);
    out.push(`Dec 01 ${clock(sec)} web-2 systemd[1]: ingestd.service: Failed with result 'exit-code'.`);
    sec += 5;
    out.push(`Dec 01 ${clock(sec)} web-2 systemd[1]: ingestd.service: Scheduled restart job, restart counter is at ${k}.`);
    out.push(`Dec 01 ${clock(sec)} web-2 systemd[1]: Started ingestd.service - Event ingester.`);
  }
  put('journal-restarts.log', out);
}

// 21. pytest -v: one failure among many.
{
  const out: string[] = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0 -- /srv/billing/venv/bin/python',
    'collected 240 items',
    '',
  ];
  const mods = ['test_invoices', 'test_tax', 'test_pdf', 'test_api'];
  let k = 0;
  for (const m of mods) {
    for (let i = 0; i < 60; i++) {
      k++;
      const pct = Math.floor((k / 240) * 100);
      const name = `test_${pick(['renders', 'rounds', 'totals', 'validates', 'exports'])}_${pick(['eur', 'usd', 'zero', 'negative', 'large', 'empty'])}_${i}`;
      out.push(`tests/${m}.py::${name} ${m === 'test_tax' && i === 17 ? 'FAILED' : 'PASSED'}${' '.repeat(Math.max(1, 60 - name.length - m.length))}[${String(pct).padStart(3)}%]`);
    }
  }
  out.push('', '=================================== FAILURES ===================================');
  out.push('_________________________ test_rounds_eur_17 _________________________', '');
  out.push(
    '    def test_rounds_eur_17():',
    '>       assert vat(Decimal("19.99"), rate="0.19") == Decimal("3.80")',
    "E       AssertionError: assert Decimal('3.79') == Decimal('3.80')",
    '',
    'tests/test_tax.py:88: AssertionError',
  );
  out.push('=========================== short test summary info ============================');
  out.push("FAILED tests/test_tax.py::test_rounds_eur_17 - AssertionError: assert Decimal('3.79') == Decimal('3.80')");
  out.push('======================== 1 failed, 239 passed in 14.02s ========================');
  put('pytest.txt', out);
}

// 22. Maven build with a compile error.
{
  const out: string[] = [
    '[INFO] Scanning for projects...',
    '[INFO] ',
    '[INFO] ------------------------< com.acme:shop-core >------------------------',
    '[INFO] Building shop-core 2.8.0',
    '[INFO] --------------------------------[ jar ]---------------------------------',
  ];
  for (let i = 0; i < 60; i++)
    out.push(
      `[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/${pick(['slf4j', 'apache', 'junit', 'hibernate'])}/${pick(['core', 'api', 'parent'])}/${int(1, 9)}.${int(0, 9)}/${pick(['core', 'api', 'parent'])}-${int(1, 9)}.${int(0, 9)}.jar (${int(2, 900)} kB at ${int(1, 9)}.${int(0, 9)} MB/s)`,
    );
  out.push('[INFO] --- compiler:3.13.0:compile (default-compile) @ shop-core ---', '[INFO] Compiling 214 source files with javac [debug release 21] to target/classes');
  out.push('[ERROR] COMPILATION ERROR : ', '[INFO] -------------------------------------------------------------');
  out.push(
    '[ERROR] /build/src/main/java/com/acme/shop/cart/CartService.java:[142,27] cannot find symbol',
    '  symbol:   method applyVoucher(com.acme.shop.cart.Voucher)',
    '  location: variable pricing of type com.acme.shop.pricing.PricingEngine',
  );
  out.push('[INFO] 1 error', '[INFO] BUILD FAILURE', '[INFO] Total time:  38.114 s');
  put('maven-build.txt', out);
}

mkdirSync(DIR, { recursive: true });
for (const [name, text] of Object.entries(files)) writeFileSync(join(DIR, name), text);
console.log(`wrote ${Object.keys(files).length} pastes to ${DIR}`);
