// The real server as a child process (node server/server.ts, the loop-delay probe preloaded) and what
// server-bench.ts measures it with from outside: HTTP calls that refuse to time an error, a GET /api/health
// probe every 100 ms, the server's own event-loop delay, its resident memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../tests/helpers/free-port';
import { ADMIN } from './scale-bench';

const HEALTH_EVERY_MS = 100;
/** The longest any wait may take (the index load, every search after the approvals) before the run fails. */
export const WAIT_LIMIT_MS = Number(process.env.BENCH_SERVER_WAIT_MS ?? 60 * 60_000);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const withoutDatabaseUrl = ({ DATABASE_URL: _ignored, ...env }: NodeJS.ProcessEnv) => env;
/** The process's resident memory (MB), from /proc. */
export const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/** A call through HTTP; any status but 2xx throws with the body, so no error is ever timed as an answer. */
export class Client {
  constructor(readonly origin: string) {}
  async call<T>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<{ ms: number; body: T }> {
    const t0 = performance.now();
    const res = await fetch(`${this.origin}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
    return { ms, body: (text ? JSON.parse(text) : undefined) as T };
  }
}

/** GET /api/health every 100 ms (the next one at once when one took longer); the latencies are taken scenario by scenario. */
export class HealthProbe {
  private samples: number[] = [];
  private failures: string[] = [];
  private running = true;
  private readonly done: Promise<void>;
  constructor(private readonly origin: string) {
    this.done = this.loop();
  }
  private async loop() {
    while (this.running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${this.origin}/api/health`);
        const text = await res.text();
        if (!res.ok) this.failures.push(`${res.status} ${text.slice(0, 200)}`);
      } catch (err) {
        this.failures.push(err instanceof Error ? err.message : String(err));
      }
      const ms = performance.now() - t0;
      this.samples.push(ms);
      await sleep(Math.max(0, HEALTH_EVERY_MS - ms));
    }
  }
  take(): number[] {
    if (this.failures.length > 0) throw new Error(`GET /api/health failed ${this.failures.length} times: ${this.failures[0]}`);
    const taken = this.samples;
    this.samples = [];
    return taken;
  }
  async stop() {
    this.running = false;
    await this.done;
  }
}

/** The server's event-loop delay, read from inside it: SIGUSR2 makes the preloaded probe write its sample and start afresh. */
export class LoopDelay {
  private seq = 0;
  constructor(private readonly child: ChildProcess, private readonly file: string) {}
  async sample(): Promise<LoopDelaySample> {
    const want = ++this.seq;
    this.child.kill('SIGUSR2');
    const t0 = performance.now();
    for (;;) {
      if (existsSync(this.file)) {
        const s = JSON.parse(readFileSync(this.file, 'utf8')) as LoopDelaySample;
        if (s.seq === want) return s;
      }
      if (performance.now() - t0 > 120_000) throw new Error('the server did not answer the loop-delay probe in 2 minutes');
      await sleep(5);
    }
  }
}

/**
 * Starts the real server with the loop-delay probe preloaded; resolves when /api/health reports the index ready. A
 * restarted server is given its former `port`: its address is a setting of other instances (a network's upper level).
 */
export async function startServer(env: Record<string, string>, loopFile: string, log: (l: string) => void, port?: number) {
  port ??= await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  // BENCH_SERVER_NODE_ARGS: node options for the server alone (e.g. "--cpu-prof --cpu-prof-dir=DIR": one profile per thread, workers included; NODE_OPTIONS refuses it).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', '--import', path.resolve(import.meta.dirname, 'loop-delay-probe.mjs'), path.resolve(import.meta.dirname, '../server/server.ts')], {
    env: {
      ...withoutDatabaseUrl(process.env),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      LOCUS_DEMO: 'false',
      LOCUS_ADMIN_EMAIL: ADMIN.email,
      LOCUS_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      LOCUS_BENCH_LOOP_DELAY_FILE: loopFile,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const startProbes: number[] = [];
  const loop = new LoopDelay(child, loopFile);
  try {
    let last = '';
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before its index was ready`);
      if (performance.now() - t0 > WAIT_LIMIT_MS) throw new Error(`the index was not ready after ${WAIT_LIMIT_MS / 1000} s (${last})`);
      const asked = performance.now();
      const body = await fetch(`${origin}/api/health`)
        .then((r) => (r.ok ? (r.json() as Promise<{ index?: { state?: string; loaded?: number; total?: number } }>) : undefined))
        .catch(() => undefined);
      const took = performance.now() - asked;
      if (body) {
        // Once the server listens, its probes' times and its event-loop delay while the index loads (the server table's start-up row).
        if (startProbes.length === 0) await loop.sample();
        startProbes.push(took);
        last = JSON.stringify(body.index);
        if (body.index?.state === 'ready') break;
      }
      await sleep(Math.max(0, HEALTH_EVERY_MS - took));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const readyMs = performance.now() - t0;
  const startLoop = await loop.sample();
  return { origin, child, loop, readyMs, readyRssMb: rssMb(child.pid!), startProbes, startLoop, stop };
}

/** What bench/loop-delay-probe.mjs writes: the server's event-loop delays (ms) since the previous sample. */
export interface LoopDelaySample {
  seq: number;
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}
