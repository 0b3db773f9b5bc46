import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { withDeadline } from './until.js';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The parsed body: the job as get-job shows it, plus `type`. */
  payload: { id: string; type: string; status: string; [field: string]: unknown };
}

export interface WebhookReceiver {
  /** Where to point a job's `webhook`; the fetcher of a test app may reach it (127.0.0.1). */
  url: string;
  /** Every delivery so far, in arrival order. */
  received: ReceivedWebhook[];
  /**
   * The first delivery about job `jobId`, waiting for it if it has not arrived yet. A job announces its outcome only
   * after recording it, so once this resolves the job has settled: a test waits on the event, not on a clock.
   */
  deliveryFor(jobId: string): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/** A webhook endpoint on loopback that accepts every delivery (204) and lets a test wait for a given job's. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiting = new Map<string, ((delivery: ReceivedWebhook) => void)[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: ReceivedWebhook['payload'];
      try {
        payload = JSON.parse(body);
      } catch {
        response.writeHead(400).end();
        return;
      }
      const delivery = { headers: request.headers, body, payload };
      received.push(delivery);
      response.writeHead(204).end();
      for (const resolve of waiting.get(payload.id) ?? []) resolve(delivery);
      waiting.delete(payload.id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    deliveryFor(jobId) {
      const arrived = received.find((d) => d.payload.id === jobId);
      if (arrived) return Promise.resolve(arrived);
      const event = new Promise<ReceivedWebhook>((resolve) => waiting.set(jobId, [...(waiting.get(jobId) ?? []), resolve]));
      return withDeadline(event, `the webhook of job ${jobId}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
