// Entry point of every worker thread; worker-pool starts it from the directory the pool itself was loaded from.
// In dist/ the build has put the compiled worker-thread.js beside this file (scripts/build.mjs copies this file
// unchanged). In src/ there is only worker-thread.ts, and on Node 20 a worker does not inherit the main thread's
// module hooks, so it registers tsx's loader itself (docs/decisions/0009-run-a-compiled-build.md).
import { existsSync } from 'node:fs';

const compiled = new URL('./worker-thread.js', import.meta.url);
if (existsSync(compiled)) {
  process.setSourceMapsEnabled(true);
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./worker-thread.ts');
}
