// Worker threads do not inherit the TypeScript loader of the main thread on Node 20, so each registers it itself.
import { register } from 'tsx/esm/api';

register();
await import('./worker-thread.ts');
