import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ImageServer {
  /** URL under which `bytes` is served. */
  serve(name: string, bytes: Buffer, contentType?: string): string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves generated images on 127.0.0.1, the only address tests may fetch from. */
export async function startImageServer(): Promise<ImageServer> {
  const files = new Map<string, { bytes: Buffer; contentType: string }>();
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    const file = files.get(request.url ?? '');
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length }).end(file.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    serve(name, bytes, contentType = 'application/octet-stream') {
      files.set(`/${name}`, { bytes, contentType });
      return `http://127.0.0.1:${port}/${name}`;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
