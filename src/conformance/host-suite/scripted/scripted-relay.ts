/**
 * How the host suite starts a scripted provider (docs/interpretations.md §86). The host under test always
 * spawns a real child process and speaks NDJSON with it over that child's stdin and stdout; what the child
 * is depends on the machine:
 *
 * - relay (where bash with /dev/tcp is found): the child is `bash scripted-relay.bash <port> <session>`,
 *   which starts in a few milliseconds and copies its stdin and stdout, byte for byte, over three loopback
 *   connections to this process, where the scripted provider's code (scripted-provider.cjs, runScripted)
 *   runs. Its exit code is the script's, its stdout ends when the script ends it, and the end of its stdin
 *   is the script's end of input — what a scripted provider process would do.
 * - node: the child is `node scripted-provider.cjs <config>`, the same code as its own process (about
 *   25 ms a start). Used where no such bash is found, and when CGP_SCRIPTED_PROVIDERS=node.
 *
 * Which one a process uses is decided once, by a probe: a relay is started, handshaken, given end of input
 * and must exit 0, within the bound below; anything else means node. CGP_SCRIPTED_PROVIDERS=relay makes a
 * failed probe an error instead. The relay listens on 127.0.0.1 only, and a connection is taken only with
 * the unguessable session id this process gave one of its relays.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { Writable, type Readable } from 'node:stream';
import { delimiter, join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { minimalEnv } from '../../../transport/stdio-client.js';

/** The scripted provider program (plain JS; the build copies it beside the compiled module). */
export const SCRIPTED_PROVIDER = fileURLToPath(new URL('./scripted-provider.cjs', import.meta.url));
/** The relay child's program (copied beside the compiled module by the build, like the provider). */
export const SCRIPTED_RELAY = fileURLToPath(new URL('./scripted-relay.bash', import.meta.url));

interface ScriptedIo {
  write(text: string): void;
  exit(code: number): void;
}
interface ScriptedInput {
  data(chunk: Buffer | string): void;
  end(): void;
}
const { runScripted } = createRequire(import.meta.url)('./scripted-provider.cjs') as {
  runScripted(config: Record<string, unknown>, io: ScriptedIo): ScriptedInput;
};

/** What the host is told to spawn for one scripted provider. */
export interface ScriptedCommand {
  command: string;
  args: string[];
  /** Ends the provider's in-process side if its relay is still connected (scenario teardown). */
  release(): void;
}

/** A relay connection names its session and its role in its first line: `<session> <in|out|ctl>\n`. */
const ROLES = ['in', 'out', 'ctl'] as const;
type Role = (typeof ROLES)[number];
const HEADER_LIMIT = 64;
/** How long a connection may take to name its session, and the probe to finish: a bound, never a wait. */
const RELAY_BOUND_MS = 10_000;

/**
 * What runs in this process behind one relay child: `input` is the child's stdin (its end is the end of
 * that stdin), what is written to `output` is the child's stdout, and `exit(code)` ends the child with
 * that exit code. `onGone` is called if the child goes first (the host killed it, or the scenario ended).
 */
export interface RelayedPeer {
  input: Readable;
  output: Writable;
  exit(code: number): void;
  onGone(fn: () => void): void;
}
export type PeerStart = (peer: RelayedPeer) => void;

interface Session {
  start: PeerStart;
  sockets: Partial<Record<Role, net.Socket>>;
  /** Bytes of "in" that followed its header line. */
  pending: Buffer[];
  ended: boolean;
}

class RelayServer {
  readonly #server: net.Server;
  readonly #sessions = new Map<string, Session>();
  readonly port: number;

  private constructor(server: net.Server, port: number) {
    this.#server = server;
    this.port = port;
    server.on('connection', (socket) => this.#accept(socket));
  }

  static async listen(): Promise<RelayServer> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.unref();
    return new RelayServer(server, (server.address() as net.AddressInfo).port);
  }

  /** A new session running `start`: the id its relay child names itself by. */
  open(start: PeerStart): string {
    const id = randomBytes(12).toString('hex');
    this.#sessions.set(id, { start, sockets: {}, pending: [], ended: false });
    return id;
  }

  /** Forget a session; if its relay is connected, end its provider as if killed (the scenario is over). */
  release(id: string): void {
    const s = this.#sessions.get(id);
    this.#sessions.delete(id);
    if (s === undefined) return;
    s.ended = true;
    for (const socket of Object.values(s.sockets)) socket?.destroy();
  }

  close(): void {
    for (const id of [...this.#sessions.keys()]) this.release(id);
    this.#server.close();
  }

  #accept(socket: net.Socket): void {
    socket.on('error', () => {}); // a relay the host killed: its connections reset; nothing to report
    let head = Buffer.alloc(0);
    const bound = setTimeout(() => socket.destroy(), RELAY_BOUND_MS).unref();
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(0x0a);
      if (nl < 0) {
        if (head.length > HEADER_LIMIT) socket.destroy();
        return;
      }
      socket.off('data', onData);
      clearTimeout(bound);
      const [id, role] = head.subarray(0, nl).toString('latin1').split(' ') as [string, Role];
      const session = this.#sessions.get(id);
      if (session === undefined || !ROLES.includes(role) || session.sockets[role] !== undefined || session.ended) {
        socket.destroy();
        return;
      }
      socket.pause();
      session.sockets[role] = socket;
      // "out" and "ctl" carry nothing after their header: read (and drop) so that their end is seen
      if (role !== 'in') socket.on('data', () => {}).resume();
      if (role === 'in' && nl + 1 < head.length) session.pending.push(head.subarray(nl + 1));
      if (ROLES.every((r) => session.sockets[r] !== undefined)) this.#start(session);
    };
    socket.on('data', onData);
  }

  #start(s: Session): void {
    const { in: input, out, ctl } = s.sockets as Record<Role, net.Socket>;
    const goneHandlers: Array<() => void> = [];
    // writes after the end are dropped (as a dead process's would be), never an error in this process
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (s.ended) return done();
        out.write(chunk, () => done());
      },
    });
    const exit = (code: number): void => {
      if (s.ended) return;
      s.ended = true;
      out.end();
      ctl.end(`${code}\n`);
      input.destroy();
    };
    // the relay gone before the peer ended (the host killed it, or the scenario is over): so is the peer
    const gone = (): void => {
      if (s.ended) return;
      s.ended = true;
      input.destroy();
      out.destroy();
      ctl.destroy();
      for (const fn of goneHandlers) fn();
    };
    out.on('close', gone);
    ctl.on('close', gone);
    const rest = s.pending.splice(0);
    for (const chunk of rest) input.unshift(chunk);
    s.start({ input, output, exit, onGone: (fn) => goneHandlers.push(fn) });
    input.resume();
  }
}

/** The scripted provider (scripted-provider.cjs) running `config` behind a relay. */
function scriptedPeer(config: Record<string, unknown>): PeerStart {
  return (peer) => {
    const provider = runScripted(config, { write: (text) => peer.output.write(text), exit: peer.exit });
    peer.input.on('data', (chunk: Buffer) => provider.data(chunk));
    peer.input.on('end', () => provider.end());
    peer.onGone(() => provider.end());
  };
}

let relay: Promise<RelayServer | undefined> | undefined;

/** bash, if this machine has one where a host would find it (an absolute path: hosts may clear PATH). */
function findBash(): string | undefined {
  if (process.platform === 'win32') return undefined;
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/bin', '/usr/bin', '/usr/local/bin'];
  return dirs
    .filter((d) => d.startsWith('/'))
    .map((d) => join(d, 'bash'))
    .find((p) => existsSync(p));
}

function relayArgs(server: RelayServer, id: string): string[] {
  // -p: $BASH_ENV and $ENV are not sourced, functions are not imported (a host may pass its whole environment)
  return ['--norc', '--noprofile', '-p', SCRIPTED_RELAY, String(server.port), id];
}

/** Start one relay with the default script: it must answer a handshake, then exit 0 at end of input. */
async function probe(bash: string, server: RelayServer): Promise<string | undefined> {
  const id = server.open(scriptedPeer({ name: 'relay-probe' }));
  const child = spawn(bash, relayArgs(server, id), { stdio: ['pipe', 'pipe', 'pipe'], env: minimalEnv() });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  child.stdin.on('error', () => {});
  child.stdin.write('{"type":"handshake","protocol_version":"contextgraph/1.0"}\n');
  child.stdout.once('data', () => child.stdin.end());
  let bound: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      new Promise<string | undefined>((resolve) => {
        child.once('error', (e) => resolve(`it could not be started (${e.message})`));
        child.once('close', (code) =>
          resolve(
            code === 0 && /^\{"type":"handshake_ack"[^\n]*\n$/.test(out)
              ? undefined
              : `it exited ${code} with ${JSON.stringify(out.slice(0, 80))} on stdout${err ? ` and ${JSON.stringify(err.trim().slice(0, 160))} on stderr` : ''}`,
          ),
        );
      }),
      new Promise<string>((resolve) => {
        bound = setTimeout(() => resolve(`it did not finish within ${RELAY_BOUND_MS} ms`), RELAY_BOUND_MS);
      }),
    ]);
    return outcome;
  } finally {
    clearTimeout(bound);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    server.release(id);
  }
}

/** The relay, when this process uses one (decided once per process; see the header). */
async function relayServer(): Promise<RelayServer | undefined> {
  relay ??= (async () => {
    const wanted = process.env.CGP_SCRIPTED_PROVIDERS;
    if (wanted !== undefined && wanted !== 'node' && wanted !== 'relay') {
      throw new Error(`CGP_SCRIPTED_PROVIDERS=${JSON.stringify(wanted)}: expected "node" or "relay"`);
    }
    if (wanted === 'node') return undefined;
    const bash = findBash();
    if (bash === undefined) {
      if (wanted === 'relay') throw new Error('CGP_SCRIPTED_PROVIDERS=relay: no bash found on PATH, /bin, /usr/bin or /usr/local/bin');
      return undefined;
    }
    const server = await RelayServer.listen();
    const failed = await probe(bash, server);
    if (failed !== undefined) {
      server.close();
      if (wanted === 'relay') throw new Error(`CGP_SCRIPTED_PROVIDERS=relay: the relay through ${bash} failed its probe: ${failed}`);
      return undefined;
    }
    bashPath = bash;
    return server;
  })();
  return relay;
}
let bashPath: string | undefined;

/** Which way this process starts scripted providers ('relay' or 'node'). */
export async function scriptedProviderMode(): Promise<'relay' | 'node'> {
  return (await relayServer()) === undefined ? 'node' : 'relay';
}

/** The command a host under test spawns for one scripted provider running `config`. */
export async function scriptedCommand(config: Record<string, unknown>): Promise<ScriptedCommand> {
  return (await relayedCommand(scriptedPeer(config))) ?? { command: process.execPath, args: [SCRIPTED_PROVIDER, JSON.stringify(config)], release: () => {} };
}

/** A relay child running `start` in this process; undefined when this process uses no relay (see the header). */
export async function relayedCommand(start: PeerStart): Promise<ScriptedCommand | undefined> {
  const server = await relayServer();
  if (server === undefined) return undefined;
  const id = server.open(start);
  return { command: bashPath!, args: relayArgs(server, id), release: () => server.release(id) };
}

/** Close the relay (after the last scenario of a run); the next use starts a new one. */
export async function closeScriptedRelay(): Promise<void> {
  const current = relay;
  relay = undefined;
  (await current?.catch(() => undefined))?.close();
}
