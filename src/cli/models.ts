import type { Config } from '../config/config.js';

// The model store arrives with the first operation that needs weights; until then the registry is empty.
export async function installModels(_config: Config): Promise<number> {
  process.stdout.write('No models are registered; nothing to install.\n');
  return 0;
}

export async function listModels(_config: Config): Promise<number> {
  process.stdout.write('No models are registered.\n');
  return 0;
}
