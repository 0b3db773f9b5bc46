import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldImage {
  url: string;
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
  const gates = new Map<string, Promise<void>>();
  const requests: string[] = [];
  const server = http.createServer(async (request, response) => {
    const path = request.url ?? '';
    requests.push(path);
    await gates.get(path);
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
      gates.set(`/${name}`, new Promise<void>((resolve) => (release = resolve)));
      return { url: serve(name, bytes, contentType), release };
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
