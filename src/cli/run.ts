import fs from 'node:fs/promises';
import path from 'node:path';
import {
  RoomcraftClient,
  RoomcraftError,
  imageDataUrl,
  imageExtension,
  imageMediaType,
  type ClientOptions,
  type Job,
  type OperationName,
  type Requests,
} from '../client/index.js';
import { describeJob } from './job-summary.js';
import { ProgressBar, type ProgressStream } from './progress-bar.js';
import { operationsUsage, parseRunArguments, type RunArguments } from './run-arguments.js';

type Env = Record<string, string | undefined>;

export interface RunIo {
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
}

export const RUN_USAGE = `Usage: roomcraft run OP PHOTO [--field value …] [-o FILE] [--json] [--server URL] [--key KEY]

Processes one photo and writes the result beside it as PHOTO-OP.EXT (room.jpg → room-upscale.jpg; the extension
follows the result's format, so a GIF comes back as .png), or to -o FILE. PHOTO is a local file, sent as a data: URL,
or an http(s) URL that the service fetches itself.

Where it runs:
  no --server   the service starts inside this command: the same code as \`roomcraft serve\`, nothing else needs to
                run. It uses the models of \`roomcraft models install\` (ROOMCRAFT_MODEL_DIR, else
                ROOMCRAFT_DATA_DIR/models, else ./data/models, else this checkout's data/models) and the other
                ROOMCRAFT_* settings, but a temporary database and a test key of its own, removed afterwards: it
                never touches the jobs or keys of a service you run, and no credits are counted.
  --server URL  the service at URL (or ROOMCRAFT_URL), with --key KEY (or ROOMCRAFT_API_KEY); make a key with
                \`roomcraft keys create --email you@example.com --kind test\`.

While the job runs, its progress is shown on stderr. Then its metadata goes to stdout: job id, mode, time, credits
(when the server reports them) and what the operation reports (engine used, objects removed, faces and plates
blurred, sky replaced); with --json, as one JSON object {"file": …, "job": …} ({"job": …} for a failed job,
{"problem": …} for a refused request).

Fields, per operation, [optional] (--name value or --name=value; --style-id, --styleId and --style_id are the same field; a
boolean alone means true, --no-NAME false; numbers and booleans are sent as such):
${operationsUsage()}
  Ids come from GET /v1/styles, /v1/rooms and /v1/furnitures of a running service (reference at /v1/docs).

Examples:
  roomcraft run upscale room.jpg                       → room-upscale.jpg, twice as wide and high
  roomcraft run upscale_advanced room.jpg --scale 4 -o big.jpg
  roomcraft run enhancer room.jpg --sky-fix --auto-privacy
  roomcraft run declutter room.jpg --mask mask.png     (white marks what to remove; without --mask: automatic)
  ROOMCRAFT_URL=http://localhost:8080 ROOMCRAFT_API_KEY=rc_test_… roomcraft run upscale room.jpg --json

Exit status: 0 done; 1 the service refused the request or the job failed (the reason is printed); 2 wrong arguments.`;

/** How often the job is read: a service elsewhere counts the reads against the key's rate limit (120 a minute). */
const POLL_REMOTE_MS = 1_000;
const POLL_EMBEDDED_MS = 250;

/** `roomcraft run …`; returns the exit code. */
export async function runCommand(argv: readonly string[], env: Env, io: RunIo = process): Promise<number> {
  const parsed = parseRunArguments(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(`${RUN_USAGE}\n`);
    return 0;
  }
  const usageError = (message: string) => {
    io.stderr.write(`roomcraft run: ${message}\n(roomcraft run --help for the usage)\n`);
    return 2;
  };
  if (parsed.kind === 'error') return usageError(parsed.message);
  const args = parsed.args;

  const server = args.server ?? (env.ROOMCRAFT_URL || undefined);
  const key = args.key ?? (server ? env.ROOMCRAFT_API_KEY || undefined : undefined);
  if (args.key && !server) {
    return usageError('--key goes with --server URL (or ROOMCRAFT_URL); without a server, run starts one of its own');
  }
  if (server) {
    if (!/^https?:\/\/[^/]/i.test(server) || !URL.canParse(server)) return usageError(`--server must be an http(s) URL, not "${server}"`);
    if (!key) return usageError(`${server} needs an API key: --key KEY or ROOMCRAFT_API_KEY`);
  }

  if (args.out) {
    const directory = path.dirname(path.resolve(args.out));
    const isDirectory = await fs.stat(directory).then((stat) => stat.isDirectory(), () => false);
    if (!isDirectory) return usageError(`-o ${args.out}: there is no directory ${directory}`);
  }

  let body: Record<string, unknown>;
  try {
    body = { url: await imageUrl(args.photo), ...args.fields };
    if (typeof args.fields.mask === 'string') body.mask = await imageUrl(args.fields.mask);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }

  const controller = new AbortController();
  const interrupt = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', interrupt);
  let closeServer = async () => {};
  try {
    let client: ClientOptions;
    if (server) {
      client = { baseUrl: server, apiKey: key! };
    } else {
      io.stderr.write('roomcraft run: no --server, so the service runs inside this command (roomcraft run --help)\n');
      const { startEmbeddedServer } = await import('./embedded-server.js');
      const embedded = await startEmbeddedServer(env);
      closeServer = embedded.close;
      client = embedded.client;
      const installed = await fs.readdir(embedded.modelsDir).then((entries) => entries.length > 0, () => false);
      io.stderr.write(
        `roomcraft run: models from ${embedded.modelsDir}${installed ? '' : ' (none there yet: roomcraft models install)'}\n`,
      );
    }
    return await runJob(new RoomcraftClient(client), args, body, io, controller.signal, server ? POLL_REMOTE_MS : POLL_EMBEDDED_MS);
  } catch (error) {
    if (controller.signal.aborted) {
      io.stderr.write('roomcraft run: interrupted\n');
      return 130;
    }
    if (error instanceof RoomcraftError) {
      if (args.json) io.stdout.write(`${JSON.stringify({ problem: error.problem })}\n`);
      io.stderr.write(`roomcraft run: ${args.operation} refused (${error.status} ${error.code}): ${error.detail}\n`);
      return 1;
    }
    if (error instanceof TypeError && server) {
      const cause = error.cause instanceof Error ? error.cause.message : error.message;
      io.stderr.write(`roomcraft run: cannot reach ${server}: ${cause}\n`);
      return 1;
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', interrupt);
    await closeServer();
  }
}

/** Sends the request, follows the job, writes the image and the metadata. */
async function runJob(
  client: RoomcraftClient,
  args: RunArguments,
  body: Record<string, unknown>,
  io: RunIo,
  signal: AbortSignal,
  interval: number,
): Promise<number> {
  const bar = new ProgressBar(io.stderr, args.operation);
  const request = body as unknown as Requests[OperationName];
  const answer = await client.process(args.operation, request, { respondAsync: true, signal }).catch(async (error: unknown) => {
    // A synchronous wait that ran out still names its job: follow that.
    if (error instanceof RoomcraftError && error.code === 'sync_timeout' && error.problem.jobId) {
      return { status: 'pending' as const, id: error.problem.jobId, mode: '' };
    }
    throw error;
  });
  let job: Job | undefined;
  let image: { bytes: Uint8Array; contentType: string };
  if (answer.status === 'success') {
    // A server that does not know `Prefer: respond-async` answered with the image itself, and without a job id.
    const bytes = Buffer.from(answer.base64, 'base64');
    image = { bytes, contentType: imageMediaType(bytes) ?? 'application/octet-stream' };
    bar.finish('done (this server answered synchronously, so there is no job to describe)');
  } else {
    job = await client.waitForJob(answer.id, { interval, signal, onProgress: (j) => bar.update(j.progress) });
    if (job.status === 'failed' || !job.output) {
      bar.finish('failed');
      if (args.json) io.stdout.write(`${JSON.stringify({ job })}\n`);
      else io.stdout.write(describeJob(job, args.operation));
      const reason = job.error ? `${job.error.code}: ${job.error.message}` : 'the result has expired';
      io.stderr.write(`roomcraft run: job ${job.id} failed: ${reason}\n`);
      return 1;
    }
    bar.finish('done');
    image = await client.download(job.output, { signal });
  }

  const extension = imageExtension(image.contentType) ?? imageExtension(imageMediaType(image.bytes) ?? '') ?? 'bin';
  const file = path.resolve(args.out ?? defaultOutput(args.photo, args.operation, extension));
  if (args.out && path.extname(args.out).slice(1).toLowerCase().replace('jpeg', 'jpg') !== extension) {
    io.stderr.write(`roomcraft run: the result is ${image.contentType}; written to ${args.out} as it is\n`);
  }
  try {
    await fs.writeFile(file, image.bytes);
  } catch (error) {
    io.stderr.write(`roomcraft run: cannot write ${file}: ${(error as Error).message}\n`);
    return 1;
  }
  if (args.json) {
    io.stdout.write(`${JSON.stringify({ file, job: job ?? null })}\n`);
  } else {
    io.stdout.write(`wrote     ${file} (${image.contentType}, ${kilobytes(image.bytes.length)})\n`);
    if (job) io.stdout.write(describeJob(job, args.operation));
  }
  return 0;
}

/** A local file as a data: URL; an http(s) or data: URL as it is. */
async function imageUrl(source: string): Promise<string> {
  if (/^(https?:\/\/|data:)/i.test(source)) return source;
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read ${source}${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}`);
  }
  return imageDataUrl(bytes);
}

/** Beside the photo: room.jpg → room-upscale.jpg; a photo given by URL: in the current directory. */
export function defaultOutput(photo: string, operation: string, extension: string): string {
  if (/^(https?:\/\/|data:)/i.test(photo)) {
    const name = /^data:/i.test(photo) ? '' : path.basename(new URL(photo).pathname, path.extname(new URL(photo).pathname));
    return `${name || 'photo'}-${operation}.${extension}`;
  }
  const parsed = path.parse(photo);
  return path.join(parsed.dir, `${parsed.name}-${operation}.${extension}`);
}

function kilobytes(bytes: number): string {
  return bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}
