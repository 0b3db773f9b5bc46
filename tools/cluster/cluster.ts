/**
 * A whole deployment on one machine, for trying the service out and for the cluster benchmark: API and worker
 * processes started exactly as `roomcraft serve` runs them, on PostgreSQL (a schema of their own), Redis (a key
 * prefix of their own) and an S3-compatible server (s3rver, in this process). Processes can be killed and restarted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// The same s3rver wrapper the tests use: a local stand-in for S3, never for production (ADR 0013).
import { S3RVER_CREDENTIALS, startS3Server } from '../../test/helpers/s3-server.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const ROOMCRAFT = path.join(ROOT, 'bin/roomcraft');

export interface ClusterOptions {
  apis: number;
  workers: number;
  /** First port; APIs take the next ones, then workers (a worker serves /health). */
  basePort: number;
  databaseUrl: string;
  /** PostgreSQL schema of this cluster; created by the first process. */
  databaseSchema: string;
  redisUrl: string;
  redisPrefix: string;
  /** Environment shared by every process (limits, intervals, log level...). */
  env?: Record<string, string>;
  /** Environment of worker processes only. */
  workerEnv?: Record<string, string>;
}

export interface ClusterProcess {
  name: string;
  role: 'api' | 'worker';
  port: number;
  url: string;
  /** JSON log lines of every run of this process, appended across restarts. */
  logFile: string;
  child: ChildProcess | undefined;
}

export interface Cluster {
  processes: ClusterProcess[];
  apiUrls: string[];
  /** Environment that points a `roomcraft` command (keys create...) at this cluster's database. */
  env: Record<string, string>;
  s3: { endpoint: string; bucket: string };
  workDir: string;
  /** SIGKILL by default: the process gets no chance to tidy up. Resolves when it has exited. */
  kill(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** Starts the process again and resolves once its /health answers. */
  start(name: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomcraft-cluster-'));
  const s3 = await startS3Server('roomcraft-outputs');

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? workDir,
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    ROOMCRAFT_DATABASE_SCHEMA: options.databaseSchema,
    REDIS_URL: options.redisUrl,
    ROOMCRAFT_REDIS_PREFIX: options.redisPrefix,
    ROOMCRAFT_STORAGE: 's3',
    ROOMCRAFT_S3_ENDPOINT: s3.endpoint,
    ROOMCRAFT_S3_BUCKET: s3.bucket,
    ROOMCRAFT_S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    ROOMCRAFT_S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    ROOMCRAFT_DATA_DIR: workDir,
    // The models `roomcraft models install` put in the repository's data directory.
    ROOMCRAFT_MODEL_DIR: process.env.ROOMCRAFT_MODEL_DIR ?? path.join(ROOT, 'data/models'),
    // Output URLs name the first API process (a load balancer's address in a real deployment), never a worker.
    ROOMCRAFT_PUBLIC_URL: `http://127.0.0.1:${options.basePort}`,
    ...options.env,
  };
  const processes: ClusterProcess[] = [];
  for (let i = 0; i < options.apis; i++) processes.push(member(`api-${i + 1}`, 'api', options.basePort + i, workDir));
  for (let i = 0; i < options.workers; i++) {
    processes.push(member(`worker-${i + 1}`, 'worker', options.basePort + options.apis + i, workDir));
  }

  const byName = (name: string) => {
    const found = processes.find((p) => p.name === name);
    if (!found) throw new Error(`no process ${name} in this cluster`);
    return found;
  };
  const start = async (name: string) => {
    const member = byName(name);
    const log = fs.openSync(member.logFile, 'a');
    member.child = spawn(process.execPath, [ROOMCRAFT, 'serve'], {
      env: { ...env, ...(member.role === 'worker' ? options.workerEnv : {}), PORT: String(member.port), ROOMCRAFT_ROLES: member.role },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    await waitForHealth(member);
  };
  const kill = async (name: string, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = byName(name).child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };

  // The first process creates the schema and migrates it alone; the others find it ready.
  await start(processes[0]!.name);
  await Promise.all(processes.slice(1).map((p) => start(p.name)));
  return {
    processes,
    apiUrls: processes.filter((p) => p.role === 'api').map((p) => p.url),
    env,
    s3: { endpoint: s3.endpoint, bucket: s3.bucket },
    workDir,
    kill,
    start,
    async stop() {
      await Promise.all(processes.map((p) => kill(p.name, 'SIGTERM')));
      await s3.close();
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}

function member(name: string, role: 'api' | 'worker', port: number, workDir: string): ClusterProcess {
  return { name, role, port, url: `http://127.0.0.1:${port}`, logFile: path.join(workDir, `${name}.log`), child: undefined };
}

async function waitForHealth(member: ClusterProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (member.child?.exitCode !== null && member.child?.exitCode !== undefined) {
      throw new Error(`${member.name} exited with ${member.child.exitCode} at start; see ${member.logFile}`);
    }
    const ok = await fetch(`${member.url}/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${member.name} did not answer /health within 120 s; see ${member.logFile}`);
}

/**
 * Creates a live key for `email` in the cluster's database, through the CLI as an operator would: a test key makes
 * the user, a licence to a plan with credits no run spends and every add-on lets them have a live key.
 */
export async function createKey(cluster: Cluster, email: string): Promise<string> {
  await roomcraft(cluster, ['keys', 'create', '--email', email, '--kind', 'test']);
  await roomcraft(cluster, ['plans', 'define', '--name', 'cluster', '--monthly-credits', '100000000', '--addons', 'smart-staging,enhancer']);
  await roomcraft(cluster, ['licences', 'grant', '--email', email, '--plan', 'cluster']);
  const output = await roomcraft(cluster, ['keys', 'create', '--email', email, '--kind', 'live']);
  return output.trim().split('\n').at(-1)!;
}

/** Runs one roomcraft command against the cluster's database; its standard output. */
function roomcraft(cluster: Cluster, args: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [ROOMCRAFT, ...args], { env: cluster.env });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`roomcraft ${args.slice(0, 2).join(' ')} exited with ${code}`))));
  });
}
