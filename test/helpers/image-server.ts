import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { withDeadline } from './until.js';

export interface HeldImage {
  url: string;
  /** Resolves when the first request for `url` has arrived (and is being held). */
  requested(): Promise<void>;
  /** Answers the held requests, and every later one at once. */
  release(): void;
}

export interface ImageServer {
  /** URL under which `bytes` is served. */
  serve(name: string, bytes: Buffer, contentType?: string): string;
  /**
   * Like serve(), but requests are not answered until release(): a job fetching it cannot finish before the test
   * says so, whatever the machine's speed.
   */
  hold(name: string, bytes: Buffer, contentType?: string): HeldImage;
  requests: string[];
  close(): Promise<void>;
}

/** Serves generated images on 127.0.0.1, the only address tests may fetch from. */
export async function startImageServer(): Promise<ImageServer> {
  const files = new Map<string, { bytes: Buffer; contentType: string }>();
  const gates = new Map<string, { opened: Promise<void>; arrived: () => void }>();
  const requests: string[] = [];
  const server = http.createServer(async (request, response) => {
    const path = request.url ?? '';
    requests.push(path);
    const gate = gates.get(path);
    if (gate) {
      gate.arrived();
      await gate.opened;
    }
    const file = files.get(path);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length }).end(file.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const serve = (name: string, bytes: Buffer, contentType = 'application/octet-stream') => {
    files.set(`/${name}`, { bytes, contentType });
    return `http://127.0.0.1:${port}/${name}`;
  };
  return {
    serve,
    hold(name, bytes, contentType) {
      let release!: () => void;
      let arrived!: () => void;
      const opened = new Promise<void>((resolve) => (release = resolve));
      const requested = new Promise<void>((resolve) => (arrived = resolve));
      gates.set(`/${name}`, { opened, arrived });
      const url = serve(name, bytes, contentType);
      return { url, requested: () => withDeadline(requested, `a request for ${url}`), release };
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
