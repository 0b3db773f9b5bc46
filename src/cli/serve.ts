import { buildApp } from '../app.js';
import type { Config } from '../config/config.js';

export async function serve(config: Config): Promise<number> {
  const app = await buildApp(config);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(
    [
      `Roomcraft is listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`,
      `  status page:   ${config.publicUrl}/status`,
      `  API reference: ${config.publicUrl}/v1/docs`,
      `  get a key:     ./bin/roomcraft keys create --email you@example.com --kind test`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      app.log.info({ signal }, 'shutting down: no new requests, running jobs finish or stay pending');
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await app.close();
  return 0;
}
