/** Synthetic paste samples (written for these tests): one per stack-trace language and table shape. */
export const TRACES: Record<string, string> = {
  java: [
    'Exception in thread "main" java.lang.IllegalArgumentException: port out of range: 70000',
    '\tat com.example.net.Listener.bind(Listener.java:42)',
    '\tat com.example.net.Listener.open(Listener.java:30)',
    '\tat com.example.App.start(App.java:18)',
    '\tat com.example.App.main(App.java:9)',
    'Caused by: java.lang.NumberFormatException: value exceeds 65535',
    '\tat com.example.net.Ports.parse(Ports.java:77)',
    '\tat com.example.net.Listener.bind(Listener.java:40)',
    '\t... 3 more',
  ].join('\n'),
  python: [
    'Traceback (most recent call last):',
    '  File "/srv/app/main.py", line 12, in <module>',
    '    run()',
    '  File "/srv/app/main.py", line 8, in run',
    '    load_config("/etc/app.toml")',
    '  File "/srv/app/config.py", line 21, in load_config',
    '    raise ValueError(f"missing key: {key}")',
    'ValueError: missing key: listen_port',
  ].join('\n'),
  go: [
    'panic: runtime error: index out of range [5] with length 3',
    '',
    'goroutine 1 [running]:',
    'main.pick(...)',
    '\t/home/dev/demo/main.go:14',
    'main.main()',
    '\t/home/dev/demo/main.go:9 +0x1d',
    'exit status 2',
  ].join('\n'),
  rust: [
    "thread 'main' panicked at src/parser.rs:88:14:",
    'called `Option::unwrap()` on a `None` value',
    'stack backtrace:',
    '   0: rust_begin_unwind',
    '             at /rustc/abc123/library/std/src/panicking.rs:645:5',
    '   1: core::panicking::panic_fmt',
    '             at /rustc/abc123/library/core/src/panicking.rs:72:14',
    '   2: demo::parser::parse_header',
    '             at ./src/parser.rs:88:14',
    'note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.',
  ].join('\n'),
  node: [
    "TypeError: Cannot read properties of undefined (reading 'length')",
    '    at countItems (/srv/web/lib/cart.js:17:22)',
    '    at Object.summary (/srv/web/lib/cart.js:40:10)',
    '    at handler (/srv/web/routes/cart.js:8:25)',
    '    at Layer.handle [as handle_request] (/srv/web/node_modules/router/lib/layer.js:95:5)',
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ].join('\n'),
  dotnet: [
    'Unhandled exception. System.InvalidOperationException: Sequence contains no elements',
    '   at System.Linq.ThrowHelper.ThrowNoElementsException()',
    '   at System.Linq.Enumerable.First[TSource](IEnumerable`1 source)',
    '   at Demo.Orders.Latest(List`1 orders) in /src/Demo/Orders.cs:line 27',
    '   at Demo.Program.Main(String[] args) in /src/Demo/Program.cs:line 11',
  ].join('\n'),
};

export const CSV_QUOTED = [
  'id,name,comment,amount,active,seen_at',
  '1,"Smith, Jane","said ""hello"", then left",12.50,true,2026-03-01T10:00:00Z',
  '2,"Lee, Bo","multi',
  'line note",7.25,false,2026-03-02T11:30:00Z',
  '3,Ng,plain,,true,2026-03-03T09:15:00Z',
  '4,"O\'Neil, Pat","",100.00,false,',
].join('\n');

export const PIPE_TABLE = ['| host | cpu | mem |', '|------|----:|----:|', '| web-1 | 35% | 1.2 |', '| web-2 | 80% | 3.4 |', '| db-1 | 12% | 7.9 |'].join('\n');

export const TSV_TABLE = ['region\tusers\tchurn', 'eu\t1200\t2.5%', 'us\t3400\t1.9%', 'apac\t800\t3.1%'].join('\n');

export const ALIGNED_TABLE = ['NAME        READY   STATUS    RESTARTS', 'api-7d9f    1/1     Running   0', 'worker-x2   0/1     Pending   3', 'cache-01    1/1     Running   1'].join('\n');

export const CODE = ['export function retryDelay(attempt: number): number {', '  const base = 100;', '  return Math.min(base * 2 ** attempt, 30_000);', '}'].join('\n');
