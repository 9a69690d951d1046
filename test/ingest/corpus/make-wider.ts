/**
 * Writes the wider part of the paste corpus (test/ingest/corpus/pastes/): eighteen more kinds of
 * everyday output — metrics pages, plans, load-test summaries, JSON documents, fixed-width tables,
 * repeated reports — written for these tests, deterministic (seeded). The committed files are the
 * corpus; this script is how they were made:
 *
 *   npx tsx test/ingest/corpus/make-wider.ts
 *
 * In every paste the line that answers the question sits in the middle, never first or last.
 * What each paste is for, and the facts a reader needs from it, are in ./index.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from '../../../src/util/prng.js';

const DIR = join(fileURLToPath(new URL('.', import.meta.url)), 'pastes');
const rnd = prng(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(0, 15)]).join('');
const two = (n: number) => String(n).padStart(2, '0');
const clock = (sec: number) => `${two(Math.floor(sec / 3600) % 24)}:${two(Math.floor(sec / 60) % 60)}:${two(sec % 60)}`;
const padR = (s: string, n: number) => (s.length > n ? `${s} ` : s + ' '.repeat(n - s.length));
const padL = (s: string, n: number) => (s.length > n ? ` ${s}` : ' '.repeat(n - s.length) + s);
const files: Record<string, string> = {};
const put = (name: string, lines: string[]) => {
  files[name] = `${lines.join('\n')}\n`;
};

// 1. A Prometheus exposition page: node + app metrics for many devices and routes; one filesystem
//    nearly out of space (the answer) in the middle of 200+ series.
{
  const out: string[] = [];
  const cpuModes = ['idle', 'iowait', 'irq', 'nice', 'softirq', 'steal', 'system', 'user'];
  out.push('# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.', '# TYPE node_cpu_seconds_total counter');
  for (let c = 0; c < 8; c++) for (const m of cpuModes) out.push(`node_cpu_seconds_total{cpu="${c}",mode="${m}"} ${(m === 'idle' ? int(800000, 900000) : int(100, 60000)) + int(0, 99) / 100}`);
  out.push('# HELP node_filesystem_avail_bytes Filesystem space available to non-root users in bytes.', '# TYPE node_filesystem_avail_bytes gauge');
  const mounts = [
    ['/dev/nvme0n1p1', '/', 'ext4'],
    ['/dev/nvme0n1p2', '/boot', 'ext4'],
    ['/dev/nvme1n1', '/var/lib/postgresql', 'xfs'],
    ['/dev/nvme2n1', '/var/lib/docker', 'xfs'],
    ['/dev/nvme3n1', '/srv/backups', 'xfs'],
    ['tmpfs', '/run', 'tmpfs'],
    ['tmpfs', '/dev/shm', 'tmpfs'],
  ];
  const avail = (dev: string) => (dev === '/dev/nvme1n1' ? '3.7748736e+07' : `${int(11, 97)}.${int(100, 999)}${int(1000, 9999)}e+09`);
  for (const [dev, mp, fs] of mounts) out.push(`node_filesystem_avail_bytes{device="${dev}",fstype="${fs}",mountpoint="${mp}"} ${avail(dev!)}`);
  out.push('# HELP node_filesystem_size_bytes Filesystem size in bytes.', '# TYPE node_filesystem_size_bytes gauge');
  for (const [dev, mp, fs] of mounts)
    out.push(`node_filesystem_size_bytes{device="${dev}",fstype="${fs}",mountpoint="${mp}"} ${dev === '/dev/nvme1n1' ? '4.99963174912e+11' : `${int(100, 499)}.${int(100, 999)}e+09`}`);
  out.push('# HELP node_network_receive_bytes_total Network device statistic receive_bytes.', '# TYPE node_network_receive_bytes_total counter');
  for (const d of ['eth0', 'eth1', 'lo', 'docker0', 'veth3a1f9c2', 'veth77b02e1'])
    out.push(`node_network_receive_bytes_total{device="${d}"} ${int(1, 9)}.${int(1000, 9999)}${int(100, 999)}e+${int(9, 12)}`);
  out.push('# HELP http_request_duration_seconds A histogram of request latencies.', '# TYPE http_request_duration_seconds histogram');
  const routes = ['/api/v2/orders', '/api/v2/cart', '/api/v2/catalog', '/healthz'];
  const les = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '+Inf'];
  for (const r of routes) {
    let n = 0;
    const total = int(20000, 90000);
    for (const le of les) {
      n = le === '+Inf' ? total : Math.min(total, n + int(0, Math.floor(total / 5)));
      out.push(`http_request_duration_seconds_bucket{handler="${r}",method="GET",le="${le}"} ${n}`);
    }
    out.push(`http_request_duration_seconds_sum{handler="${r}",method="GET"} ${int(100, 9000)}.${int(100, 999)}`);
    out.push(`http_request_duration_seconds_count{handler="${r}",method="GET"} ${total}`);
  }
  out.push('# HELP process_open_fds Number of open file descriptors.', '# TYPE process_open_fds gauge', `process_open_fds ${int(40, 90)}`);
  out.push('# HELP go_goroutines Number of goroutines that currently exist.', '# TYPE go_goroutines gauge', `go_goroutines ${int(30, 80)}`);
  put('metrics.prom', out);
}

// 2. A terraform plan: many in-place updates (tags), one database replaced (destructive) in the middle.
{
  const out: string[] = [
    'Terraform used the selected providers to generate the following execution plan. Resource actions are',
    'indicated with the following symbols:',
    '  ~ update in-place',
    '-/+ destroy and then create replacement',
    '',
    'Terraform will perform the following actions:',
    '',
  ];
  const upd = (addr: string, type: string) => {
    out.push(`  # ${addr} will be updated in-place`, `  ~ resource "${type}" "${addr.split('.')[1]!.replace(/\[\d+\]/, '')}" {`);
    out.push(`        id                     = "${type === 'aws_instance' ? `i-0${hex(16)}` : `${addr.split('.')[1]}-${hex(6)}`}"`);
    out.push(`      ~ tags                   = {`, `          ~ "CostCenter" = "cc-1180" -> "cc-2210"`, `            # (3 unchanged elements hidden)`, `        }`);
    out.push(`      ~ tags_all               = {`, `          ~ "CostCenter" = "cc-1180" -> "cc-2210"`, `            # (3 unchanged elements hidden)`, `        }`);
    out.push(`        # (${int(12, 31)} unchanged attributes hidden)`, '    }', '');
  };
  for (let i = 0; i < 9; i++) upd(`aws_instance.web[${i}]`, 'aws_instance');
  out.push(
    '  # aws_db_instance.orders must be replaced',
    '-/+ resource "aws_db_instance" "orders" {',
    '      ~ address                 = "orders.c8k2x1.eu-west-1.rds.amazonaws.com" -> (known after apply)',
    '      ~ arn                     = "arn:aws:rds:eu-west-1:443210987654:db:orders" -> (known after apply)',
    '      ~ engine_version          = "15.4" -> "16.1"',
    '      ~ id                      = "db-ORDERS7Q2K" -> (known after apply)',
    '      ~ storage_encrypted       = false -> true # forces replacement',
    '      ~ tags                    = {',
    '          ~ "CostCenter" = "cc-1180" -> "cc-2210"',
    '            # (3 unchanged elements hidden)',
    '        }',
    '        # (41 unchanged attributes hidden)',
    '    }',
    '',
  );
  for (let i = 0; i < 6; i++) upd(`aws_security_group.svc_${pick(['api', 'web', 'worker', 'cache', 'queue', 'batch'])}${i}`, 'aws_security_group');
  for (let i = 0; i < 4; i++) upd(`aws_s3_bucket.assets_${i}`, 'aws_s3_bucket');
  out.push(
    'Plan: 1 to add, 19 to change, 1 to destroy.',
    '',
    '─────────────────────────────────────────────────────────────────────────────',
    '',
    "Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly",
    'these actions if you run "terraform apply" now.',
  );
  put('terraform-plan.txt', out);
}

// 3. A k6 load-test summary with per-endpoint tagged trends; one endpoint's p(95) is far above the rest.
{
  const out: string[] = [
    '',
    '          /\\      |‾‾| /‾‾/   /‾‾/   ',
    '     /\\  /  \\     |  |/  /   /  /    ',
    '    /  \\/    \\    |     (   /   ‾‾\\  ',
    '   /          \\   |  |\\  \\ |  (‾)  | ',
    '  / __________ \\  |__| \\__\\ \\_____/ .io',
    '',
  ];
  out.push(
    '     execution: local',
    '        script: checkout.js',
    '        output: -',
    '',
    '     scenarios: (100.00%) 1 scenario, 200 max VUs, 5m30s max duration (incl. graceful stop):',
    '              * default: Up to 200 looping VUs for 5m0s over 3 stages (gracefulRampDown: 30s, gracefulStop: 30s)',
    '',
  );
  const checks = ['catalog status is 200', 'cart status is 200', 'checkout status is 200', 'orders status is 200', 'login status is 200', 'search status is 200', 'profile status is 200'];
  for (const c of checks) out.push(c === 'checkout status is 200' ? `     ✗ ${c}\n      ↳  91% — ✓ 21804 / ✗ 2131` : `     ✓ ${c}`);
  out.push('');
  out.push('     checks.........................: 98.71% ✓ 163512     ✗ 2131  ');
  out.push(`     data_received..................: 1.9 GB  6.1 MB/s`, `     data_sent......................: 88 MB   281 kB/s`);
  const eps = ['catalog', 'cart', 'login', 'orders', 'checkout', 'profile', 'search', 'static', 'healthz', 'reviews', 'recommendations', 'wishlist'];
  out.push('     http_req_blocked...............: avg=41.2µs  min=1µs     med=4µs     max=311.09ms p(90)=7µs     p(95)=9µs    ');
  out.push('     http_req_connecting............: avg=21.17µs min=0s      med=0s      max=104.2ms  p(90)=0s      p(95)=0s     ');
  out.push('     http_req_duration..............: avg=212.4ms min=3.1ms   med=88.2ms  max=30s      p(90)=401.5ms p(95)=1.12s  ');
  for (const e of eps) {
    const slow = e === 'checkout';
    const p95 = slow ? '8.41s' : `${int(60, 240)}.${int(1, 9)}ms`;
    const name = `{ name:${e} }`;
    out.push(
      `       ${padR(name, 25)}: avg=${slow ? '2.93s' : `${int(20, 90)}.${int(1, 9)}ms`}  min=${int(2, 9)}.${int(1, 9)}ms   med=${slow ? '1.77s' : `${int(15, 60)}.${int(1, 9)}ms`}  max=${slow ? '30s' : `${int(300, 900)}.${int(1, 9)}ms`}  p(90)=${slow ? '6.02s' : `${int(50, 180)}.${int(1, 9)}ms`}  p(95)=${p95}`,
    );
  }
  out.push('     http_req_failed................: 1.28%  ✓ 2131       ✗ 163512');
  out.push('     http_req_receiving.............: avg=1.2ms   min=14µs    med=61µs    max=1.91s    p(90)=241µs   p(95)=1.02ms ');
  out.push('     http_req_sending...............: avg=33.9µs  min=5µs     med=18µs    max=41.2ms   p(90)=36µs    p(95)=49µs   ');
  out.push('     http_req_waiting...............: avg=211.1ms min=3ms     med=87.9ms  max=30s      p(90)=400.3ms p(95)=1.11s  ');
  out.push(
    '     http_reqs......................: 165643 530.107231/s',
    '     iteration_duration.............: avg=4.51s   min=1.2s    med=3.71s   max=41.9s    p(90)=8.1s    p(95)=12.4s  ',
    '     iterations.....................: 23935  76.599371/s',
    '     vus............................: 4      min=4        max=200',
    '     vus_max........................: 200    min=200      max=200',
    '',
    '',
    'running (5m12.5s), 000/200 VUs, 23935 complete and 0 interrupted iterations',
    'default ✓ [======================================] 000/200 VUs  5m0s',
  );
  put('k6-summary.txt', out);
}

// 4. A pretty-printed JSON array of user objects (an admin API dump); one account is locked.
{
  const first = ['Ada', 'Ben', 'Chloé', 'Dev', 'Eun', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jun', 'Kemal', 'Lena', 'Mia', 'Noor', 'Otto', 'Priya'];
  const last = ['Quinn', 'Ruiz', 'Sato', 'Tan', 'Ueda', 'Vega', 'Wolf', 'Xu', 'Yilmaz', 'Zhou'];
  const users: unknown[] = [];
  for (let i = 0; i < 70; i++) {
    const locked = i === 38;
    const f = pick(first);
    const l = pick(last);
    users.push({
      id: 10400 + i,
      email: `${f
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z]/g, '')}.${l.toLowerCase()}${i}@example.com`,
      name: `${f} ${l}`,
      role: i % 17 === 3 ? 'admin' : 'member',
      status: locked ? 'locked' : 'active',
      failed_logins: locked ? 31 : int(0, 2),
      last_login: `2026-11-${two(int(10, 30))}T${clock(int(0, 86399))}Z`,
      mfa: { enabled: i % 5 !== 0, method: i % 5 === 0 ? null : pick(['totp', 'webauthn']) },
    });
  }
  put('users.json', JSON.stringify(users, null, 2).split('\n'));
}

// 5. Nested records: `aws ec2 describe-instances` (Reservations → Instances); one instance stopped.
{
  const res: unknown[] = [];
  for (let r = 0; r < 14; r++) {
    const instances: unknown[] = [];
    for (let k = 0; k < (r % 3 === 0 ? 2 : 1); k++) {
      const stopped = r === 8;
      instances.push({
        InstanceId: `i-0${hex(16)}`,
        InstanceType: pick(['m6i.large', 'm6i.xlarge', 'c6i.2xlarge']),
        LaunchTime: `2026-${two(int(6, 11))}-${two(int(1, 28))}T${clock(int(0, 86399))}+00:00`,
        PrivateIpAddress: `10.20.${int(0, 15)}.${int(2, 250)}`,
        State: stopped ? { Code: 80, Name: 'stopped' } : { Code: 16, Name: 'running' },
        StateReason: stopped ? { Code: 'Server.InsufficientInstanceCapacity', Message: 'Server.InsufficientInstanceCapacity: Insufficient capacity.' } : undefined,
        Tags: [
          { Key: 'Name', Value: stopped ? 'orders-worker-3' : `${pick(['api', 'web', 'cache', 'batch'])}-${r}-${k}` },
          { Key: 'env', Value: 'prod' },
        ],
      });
    }
    res.push({ ReservationId: `r-0${hex(16)}`, OwnerId: '443210987654', Instances: instances });
  }
  put('ec2-instances.json', JSON.stringify({ Reservations: res }, null, 4).split('\n'));
}

// 6. df -h on a container host: many overlay mounts; one volume at 100 %.
{
  const out = ['Filesystem      Size  Used Avail Use% Mounted on'];
  const row = (fs: string, size: number, used: number, mp: string) => {
    const avail = Math.max(0, size - used);
    const pct = Math.round((used / size) * 100);
    out.push(`${padR(fs, 15)}${padL(`${size}G`, 5)} ${padL(`${used}G`, 5)} ${padL(`${avail}G`, 5)} ${padL(`${pct}%`, 4)} ${mp}`);
  };
  out.push('udev             32G     0   32G   0% /dev', 'tmpfs           6.3G  2.9M  6.3G   1% /run');
  row('/dev/nvme0n1p1', 194, 61, '/');
  out.push('tmpfs            32G     0   32G   0% /dev/shm', 'tmpfs           5.0M     0  5.0M   0% /run/lock');
  row('/dev/nvme0n1p2', 1, 0, '/boot/efi');
  for (let i = 0; i < 18; i++) out.push(`overlay         194G   61G  134G  32% /var/lib/docker/overlay2/${hex(64)}/merged`);
  row('/dev/nvme1n1', 492, 492, '/var/lib/postgresql');
  for (let i = 0; i < 14; i++) out.push(`shm              64M     0   64M   0% /var/lib/docker/containers/${hex(64)}/mounts/shm`);
  row('/dev/nvme2n1', 984, 311, '/srv/backups');
  out.push('tmpfs           6.3G  4.0K  6.3G   1% /run/user/1000');
  put('df-h.txt', out);
}

// 7. iostat -x: several samples of many devices; one device saturated (100 % util, long await).
{
  const out = ['Linux 6.8.0-49-generic (db-prod-2) 	12/01/2026 	_x86_64_	(16 CPU)', ''];
  const devs = ['loop0', 'loop1', 'loop2', 'nvme0n1', 'nvme1n1', 'nvme2n1', 'nvme3n1', 'sda', 'sdb', 'dm-0'];
  for (let s = 0; s < 3; s++) {
    out.push(
      `avg-cpu:  %user   %nice %system %iowait  %steal   %idle`,
      `          ${padL((int(50, 140) / 10).toFixed(2), 6)}    0.00 ${padL((int(20, 60) / 10).toFixed(2), 7)} ${padL((int(300, 420) / 10).toFixed(2), 7)}    0.00 ${padL((int(400, 500) / 10).toFixed(2), 7)}`,
      '',
    );
    const head = 'Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz  aqu-sz  %util';
    const ends = [...head.matchAll(/\S+/g)].slice(1).map((m) => m.index! + m[0].length);
    out.push(head);
    for (const d of devs) {
      const hot = d === 'nvme1n1';
      const f = (lo: number, hi: number, w: number) => padL((int(lo * 100, hi * 100) / 100).toFixed(2), w);
      const cells = [
        f(0, hot ? 0 : 40, 8),
        f(0, 900, 9),
        f(0, 2, 8),
        f(0, 9, 6),
        f(0, 2, 7),
        f(4, 40, 8),
        hot ? '4120.00' : f(0, 90, 7),
        hot ? '98312.00' : f(0, 2000, 9),
        f(0, 20, 8),
        f(0, 40, 6),
        hot ? '187.31' : f(0, 3, 7),
        f(4, 40, 8),
        hot ? '771.60' : f(0, 1, 7),
        hot ? '100.00' : f(0, 9, 6),
      ];
      // right-aligned under the header's column names, as iostat prints them
      let row = d;
      cells.forEach((c, k) => {
        row += c.trim().padStart(ends[k]! - row.length);
      });
      out.push(row);
    }
    out.push('');
  }
  out.pop();
  put('iostat-x.txt', out);
}

// 8. An ansible run: many tasks × 48 hosts, one fatal, then the PLAY RECAP with one failed host.
{
  const hosts = Array.from({ length: 48 }, (_, i) => `web-${two(i + 1)}.prod`);
  const out = ['', 'PLAY [rolling nginx upgrade] ************************************************', ''];
  for (const task of ['Gathering Facts', 'nginx : install nginx 1.27', 'nginx : render nginx.conf', 'nginx : validate config']) {
    out.push(`TASK [${task}] ${'*'.repeat(Math.max(3, 70 - task.length))}`);
    for (const h of hosts) {
      if (task === 'nginx : validate config' && h === 'web-23.prod') {
        out.push(
          'fatal: [web-23.prod]: FAILED! => {"changed": true, "cmd": ["nginx", "-t"], "msg": "non-zero return code", "rc": 1, "stderr": "nginx: [emerg] unknown directive \\"proxy_buffering_off\\" in /etc/nginx/conf.d/upstream.conf:14"}',
        );
        continue;
      }
      out.push(`${task.startsWith('Gathering') || task.includes('validate') ? 'ok' : pick(['changed', 'ok'])}: [${h}]`);
    }
    out.push('');
  }
  out.push('PLAY RECAP ******************************************************************');
  for (const h of hosts) {
    const failed = h === 'web-23.prod';
    out.push(`${padR(h, 26)}: ok=${failed ? 3 : 4}    changed=${failed ? 2 : 2}    unreachable=0    failed=${failed ? 1 : 0}    skipped=0    rescued=0    ignored=0   `);
  }
  put('ansible-run.txt', out);
}

// 9. kubectl get pods -o wide: ~70 pods, one in CrashLoopBackOff with many restarts.
{
  const out = ['NAME                                   READY   STATUS             RESTARTS         AGE     IP             NODE                           NOMINATED NODE   READINESS GATES'];
  const apps = ['api', 'web', 'worker', 'cart', 'catalog', 'search', 'notifier'];
  for (let i = 0; i < 70; i++) {
    const bad = i === 41;
    const name = `${bad ? 'payments' : pick(apps)}-${hex(9).replace(/[0-9]/g, (d) => 'bcdfghjklm'[Number(d)]!)}-${hex(5).replace(/[0-9]/g, (d) => 'npqrstvwxz'[Number(d)]!)}`;
    const restarts = bad ? '47 (2m13s ago)' : String(int(0, 1) === 0 ? 0 : int(1, 2));
    out.push(
      `${padR(name, 39)}${padR(bad ? '0/1' : '1/1', 8)}${padR(bad ? 'CrashLoopBackOff' : 'Running', 19)}${padR(restarts, 17)}${padR(`${int(2, 40)}d`, 8)}${padR(`10.42.${int(0, 9)}.${int(2, 250)}`, 15)}${padR(`ip-10-20-${int(0, 15)}-${int(2, 250)}.ec2.internal`, 31)}${padR('<none>', 17)}<none>`,
    );
  }
  put('kubectl-pods-wide.txt', out);
}

// 10. A MySQL slow query log: many short entries, one 41-second scan of 48 M rows.
{
  const out = [
    '/usr/sbin/mysqld, Version: 8.0.39 (MySQL Community Server - GPL). started with:',
    'Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock',
    'Time                 Id Command    Argument',
  ];
  let sec = 9 * 3600;
  const queries = [
    (n: number) => `SELECT * FROM cart_items WHERE cart_id = ${n};`,
    (n: number) => `UPDATE sessions SET last_seen = NOW() WHERE id = '${hex(16)}' AND user_id = ${n};`,
    (n: number) => `SELECT id, sku, price FROM products WHERE category_id = ${n % 40} ORDER BY price LIMIT 50;`,
  ];
  for (let i = 0; i < 40; i++) {
    sec += int(5, 90);
    const slow = i === 23;
    const qt = slow ? '41.837214' : `${int(1, 3)}.${String(int(0, 999999)).padStart(6, '0')}`;
    const ex = slow ? 48213996 : int(100, 90000);
    out.push(`# Time: 2026-12-01T${clock(sec)}.${String(int(0, 999999)).padStart(6, '0')}Z`);
    out.push(`# User@Host: ${slow ? 'report[report]' : 'shop[shop]'} @  [10.20.${int(0, 9)}.${int(2, 250)}]  Id: ${int(100000, 999999)}`);
    out.push(`# Query_time: ${qt}  Lock_time: 0.000${int(100, 999)} Rows_sent: ${slow ? 12 : int(1, 50)}  Rows_examined: ${ex}`);
    out.push(`SET timestamp=${1796115600 + sec};`);
    out.push(
      slow ? "SELECT c.country, SUM(o.total) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE DATE(o.created_at) >= '2026-01-01' GROUP BY c.country;" : pick(queries)(int(1, 99999)),
    );
  }
  put('mysql-slow.log', out);
}

// 11. git log --stat: 45 commits; one touches src/billing/tax.ts (the question).
{
  const authors = ['Dana Ortiz <dana@acme.dev>', 'Kofi Mensah <kofi@acme.dev>', 'Lin Wei <lin@acme.dev>', 'Sam Novak <sam@acme.dev>'];
  const filesPool = [
    'src/cart/cart.ts',
    'src/cart/totals.ts',
    'src/api/orders.ts',
    'src/api/router.ts',
    'src/ui/Checkout.tsx',
    'src/ui/Header.tsx',
    'docs/README.md',
    'package.json',
    'src/db/migrations/0042_add_index.sql',
    'test/cart.test.ts',
  ];
  const subjects = [
    'cart: keep totals in cents',
    'api: paginate orders',
    'ui: tidy checkout layout',
    'deps: bump vite',
    'db: index orders.created_at',
    'test: cover empty cart',
    'docs: explain local setup',
    'router: 404 for unknown routes',
  ];
  const out: string[] = [];
  let t = Date.UTC(2026, 10, 30, 17, 0, 0);
  for (let i = 0; i < 45; i++) {
    t -= int(1, 20) * 3600_000;
    const d = new Date(t);
    const tax = i === 27;
    out.push(`commit ${tax ? '9c41e7a0b2d3f4e5a6b7c8d9e0f1a2b3c4d5e6f7' : hex(40)}`);
    out.push(`Author: ${tax ? 'Kofi Mensah <kofi@acme.dev>' : pick(authors)}`);
    out.push(`Date:   ${d.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 $4')} +0000`, '');
    out.push(`    ${tax ? 'billing: round VAT half-up per line, not per invoice' : pick(subjects)}`, '');
    const fs = tax ? ['src/billing/tax.ts', 'test/billing/tax.test.ts'] : Array.from(new Set(Array.from({ length: int(1, 4) }, () => pick(filesPool))));
    let ins = 0;
    let del = 0;
    for (const f of fs) {
      const a = int(1, 40);
      const b = int(0, 20);
      ins += a;
      del += b;
      out.push(` ${padR(f, 38)}| ${padL(String(a + b), 3)} ${'+'.repeat(Math.min(a, 30))}${'-'.repeat(Math.min(b, 15))}`);
    }
    out.push(` ${fs.length} file${fs.length === 1 ? '' : 's'} changed, ${ins} insertions(+), ${del} deletions(-)`, '');
  }
  out.pop();
  put('git-log-stat.txt', out);
}

// 12. docker ps -a: many containers up; one exited with 137 (killed).
{
  const out = ['CONTAINER ID   IMAGE                          COMMAND                  CREATED        STATUS                       PORTS                                       NAMES'];
  const imgs = ['acme/api:2.8.1', 'acme/web:2.8.1', 'acme/worker:2.8.1', 'redis:7.4-alpine', 'postgres:16.4', 'nginx:1.27-alpine', 'grafana/grafana:11.3.0'];
  const cmds: Record<string, string> = {
    'acme/api:2.8.1': '"node dist/server.js"',
    'acme/web:2.8.1': '"node dist/web.js"',
    'acme/worker:2.8.1': '"node dist/worker.js"',
    'redis:7.4-alpine': '"docker-entrypoint.s…"',
    'postgres:16.4': '"docker-entrypoint.s…"',
    'nginx:1.27-alpine': '"/docker-entrypoint.…"',
    'grafana/grafana:11.3.0': '"/run.sh"',
  };
  for (let i = 0; i < 24; i++) {
    const dead = i === 14;
    const img = dead ? 'acme/worker:2.8.1' : pick(imgs);
    const status = dead ? 'Exited (137) 4 minutes ago' : `Up ${int(2, 9)} ${pick(['hours', 'days'])}${img.startsWith('acme') ? ' (healthy)' : ''}`;
    const ports = img.startsWith('nginx') ? '0.0.0.0:443->443/tcp, :::443->443/tcp' : img.startsWith('postgres') ? '5432/tcp' : img.startsWith('redis') ? '6379/tcp' : dead ? '' : '8080/tcp';
    out.push(
      `${hex(12)}   ${padR(img, 31)}${padR(cmds[img]!, 25)}${padR(`${int(2, 9)} days ago`, 15)}${padR(status, 29)}${padR(ports, 44)}${dead ? 'shop-worker-3' : `shop-${img.split(/[/:]/)[1]!.split('-')[0]}-${i}`}`,
    );
  }
  put('docker-ps.txt', out);
}

// 13. npm audit: many moderate/low advisories, one critical in the middle.
{
  const out = ['# npm audit report', ''];
  const pkgs = ['braces', 'micromatch', 'semver', 'postcss', 'word-wrap', 'tough-cookie', 'cookie', 'send', 'path-to-regexp', 'ws', 'follow-redirects', 'ip'];
  pkgs.forEach((p, i) => {
    const crit = p === 'cookie' ? false : i === 8;
    out.push(`${crit ? 'path-to-regexp' : p}  <${int(1, 7)}.${int(0, 20)}.${int(0, 9)}`);
    out.push(`Severity: ${crit ? 'critical' : pick(['moderate', 'moderate', 'low', 'high'])}`);
    out.push(
      `${crit ? 'path-to-regexp outputs backtracking regular expressions that allow remote code execution via crafted routes' : `${p} ${pick(['Regular Expression Denial of Service', 'Prototype Pollution', 'Inefficient Regular Expression Complexity', 'Server-Side Request Forgery'])}`} - https://github.com/advisories/GHSA-${hex(4)}-${hex(4)}-${hex(4)}`,
    );
    out.push(crit ? 'fix available via `npm audit fix --force`' : 'fix available via `npm audit fix`');
    if (crit) out.push('Will install express@4.21.2, which is outside the stated dependency range');
    out.push(`node_modules/${crit ? 'express/node_modules/path-to-regexp' : p}`);
    out.push('');
  });
  out.push(
    `12 vulnerabilities (2 low, 6 moderate, 3 high, 1 critical)`,
    '',
    'To address issues that do not require attention, run:',
    '  npm audit fix',
    '',
    'To address all issues (including breaking changes), run:',
    '  npm audit fix --force',
  );
  put('npm-audit.txt', out);
}

// 14. systemctl status: a key/value header, then the unit's journal tail (address already in use).
{
  const out = [
    '× nginx.service - A high performance web server and a reverse proxy server',
    '     Loaded: loaded (/lib/systemd/system/nginx.service; enabled; preset: enabled)',
    '     Active: failed (Result: exit-code) since Tue 2026-12-01 09:14:07 UTC; 2min 3s ago',
    '   Duration: 3d 4h 12min 9.101s',
    '       Docs: man:nginx(8)',
    '    Process: 771204 ExecStartPre=/usr/sbin/nginx -t -q -g daemon on; master_process on; (code=exited, status=0/SUCCESS)',
    '    Process: 771206 ExecStart=/usr/sbin/nginx -g daemon on; master_process on; (code=exited, status=1/FAILURE)',
    '        CPU: 41ms',
    '',
  ];
  let sec = 9 * 3600 + 14 * 60;
  for (let i = 0; i < 30; i++) out.push(`Dec 01 ${clock(sec + Math.floor(i / 6))} web-prod-1 nginx[771206]: nginx: [emerg] bind() to 0.0.0.0:443 failed (98: Address already in use)`);
  out.splice(out.length - 12, 0, `Dec 01 ${clock(sec + 3)} web-prod-1 nginx[771206]: nginx: [emerg] still could not bind()`);
  out.push(`Dec 01 ${clock(sec + 5)} web-prod-1 systemd[1]: nginx.service: Control process exited, code=exited, status=1/FAILURE`);
  out.push(`Dec 01 ${clock(sec + 5)} web-prod-1 systemd[1]: nginx.service: Failed with result 'exit-code'.`);
  out.push(`Dec 01 ${clock(sec + 5)} web-prod-1 systemd[1]: Failed to start nginx.service - A high performance web server and a reverse proxy server.`);
  put('systemctl-status.txt', out);
}

// 15. top -b -n 1: the summary, then ~60 processes; one runaway process at 398 % CPU in the middle.
{
  const out = [
    'top - 09:31:44 up 12 days,  3:07,  2 users,  load average: 7.91, 6.40, 4.02',
    'Tasks: 312 total,   3 running, 309 sleeping,   0 stopped,   0 zombie',
    '%Cpu(s): 51.3 us,  2.1 sy,  0.0 ni, 46.0 id,  0.1 wa,  0.0 hi,  0.5 si,  0.0 st',
    'MiB Mem :  64213.4 total,   8120.7 free,  31204.9 used,  24887.8 buff/cache',
    'MiB Swap:   2048.0 total,   2048.0 free,      0.0 used.  32101.2 avail Mem',
    '',
    '    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND',
  ];
  const cmds = ['postgres', 'node', 'nginx', 'redis-server', 'containerd', 'dockerd', 'systemd-journal', 'sshd', 'kworker/u32:2', 'java'];
  const rows: string[] = [];
  for (let i = 0; i < 60; i++) {
    const hog = i === 29;
    const cmd = hog ? 'imgresize' : pick(cmds);
    const cpu = hog ? '398.0' : (int(0, 40) / 10).toFixed(1);
    rows.push(
      `${String(hog ? 884213 : int(300, 900000)).padStart(7)} ${(hog ? 'worker' : pick(['postgres', 'root', 'www-data', 'app'])).padEnd(9)} 20   0 ${`${int(10, 9000)}${pick(['m', ''])}`.padStart(7)} ${`${int(2, 900)}${pick(['m', ''])}`.padStart(6)} ${String(int(1, 90000)).padStart(6)} ${hog ? 'R' : 'S'} ${cpu.padStart(5)} ${(int(0, 60) / 10).toFixed(1).padStart(5)} ${`${int(0, 900)}:${two(int(0, 59))}.${two(int(0, 99))}`.padStart(9)} ${cmd}`,
    );
  }
  out.push(...rows);
  put('top.txt', out);
}

// 16. ss -tanp: many ESTAB connections; a pile of CLOSE-WAIT sockets to one upstream.
{
  const out = ['State      Recv-Q Send-Q      Local Address:Port        Peer Address:Port  Process'];
  for (let i = 0; i < 80; i++) {
    const cw = i >= 30 && i < 52;
    const state = cw ? 'CLOSE-WAIT' : i % 19 === 7 ? 'TIME-WAIT' : 'ESTAB';
    const peer = cw ? `10.20.4.17:${8443}` : `10.20.${int(0, 9)}.${int(2, 250)}:${pick(['5432', '6379', '443', '8080'])}`;
    out.push(
      `${padR(state, 11)}${padL(cw ? '1' : '0', 6)} ${padL('0', 6)} ${padL(`10.20.1.5:${int(32768, 60999)}`, 22)} ${padL(peer, 24)}  users:(("node",pid=${cw ? 4412 : pick([4412, 4419, 981])},fd=${int(20, 400)}))`,
    );
  }
  put('ss-tanp.txt', out);
}

// 17. ip neigh: a neighbour table of MAC addresses (no times anywhere); one neighbour FAILED.
{
  const out: string[] = [];
  for (let i = 0; i < 40; i++) {
    const failed = i === 22;
    const mac = i === 5 ? '08:90:08:41:02:08' : Array.from({ length: 6 }, () => hex(2)).join(':');
    out.push(failed ? '10.20.0.77 dev eth0 FAILED' : `10.20.0.${10 + i} dev eth0 lladdr ${mac} ${pick(['REACHABLE', 'STALE', 'STALE', 'DELAY'])}`);
  }
  put('ip-neigh.txt', out);
}

// 18. A CSV export of payments: ~150 rows; one refund far larger than every other amount.
{
  const out = ['payment_id,created_at,customer,method,amount,currency,status'];
  for (let i = 0; i < 150; i++) {
    const odd = i === 87;
    out.push(
      `pay_${hex(10)},2026-11-${two(int(1, 30))}T${clock(int(0, 86399))}Z,cus_${hex(8)},${pick(['card', 'card', 'card', 'sepa', 'paypal'])},${odd ? '-18450.00' : (int(500, 25000) / 100).toFixed(2)},EUR,${odd ? 'refunded' : pick(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'pending'])}`,
    );
  }
  put('payments.csv', out);
}

mkdirSync(DIR, { recursive: true });
for (const [name, text] of Object.entries(files)) writeFileSync(join(DIR, name), text);
console.log(`wrote ${Object.keys(files).length} pastes to ${DIR}`);
