import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { serve } from './serve.js';
import { createKey, revokeKey, showWebhookSecret } from './keys.js';
import { listModels, installModels } from './models.js';
import { analyzePhoto } from './analyze.js';

const USAGE = `Usage: roomcraft <command>

  serve                                   start the service (roles from ROOMCRAFT_ROLES, default api,worker)
  keys create --email E --kind test|live  create a user's API key; the key is printed alone on the last line
  keys revoke --prefix P                  revoke the key whose listed prefix is P
  webhook-secret --email E                print the user's webhook signing secret
  models install                          fetch and verify the models of the registry
  models list                             show every model: present, verified, licence
  analyze PHOTO [--out overlay.png] [--json] [--lines auto|mlsd|lsd]
                                          camera, vanishing points, room layout and openings of a photo

Configuration comes from the environment; see docs/configuration.md.`;

type Env = Record<string, string | undefined>;

export async function runCli(argv: string[], env: Env): Promise<number> {
  const [command, sub] = argv;
  try {
    const config = loadConfig(env);
    if (command === 'analyze') {
      const { values, positionals } = parseArgs({
        args: argv.slice(1),
        options: { out: { type: 'string' }, json: { type: 'boolean' }, lines: { type: 'string' } },
        allowPositionals: true,
      });
      const [photo] = positionals;
      if (!photo || (values.lines && !['auto', 'mlsd', 'lsd'].includes(values.lines))) return usage(2);
      return await analyzePhoto(config, photo, {
        ...(values.out ? { out: values.out } : {}),
        ...(values.json ? { json: true } : {}),
        ...(values.lines ? { lines: values.lines as 'auto' | 'mlsd' | 'lsd' } : {}),
      });
    }
    const flags = parseArgs({
      args: argv.slice(command === 'keys' || command === 'models' ? 2 : 1),
      options: { email: { type: 'string' }, kind: { type: 'string' }, prefix: { type: 'string' }, help: { type: 'boolean' } },
      allowPositionals: false,
    }).values;
    if (flags.help) return usage(0);
    switch (command) {
      case 'serve':
        return await serve(config);
      case 'keys':
        if (sub === 'create') return await createKey(config, flags.email, flags.kind);
        if (sub === 'revoke') return await revokeKey(config, flags.prefix);
        return usage(2);
      case 'webhook-secret':
        return await showWebhookSecret(config, flags.email);
      case 'models':
        if (sub === 'install') return await installModels(config);
        if (sub === 'list') return await listModels(config);
        return usage(2);
      default:
        return usage(command === undefined || command === 'help' || command === '--help' ? 0 : 2);
    }
  } catch (error) {
    if (error instanceof ConfigError || (error instanceof TypeError && 'code' in error)) {
      process.stderr.write(`roomcraft: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function usage(code: number): number {
  (code === 0 ? process.stdout : process.stderr).write(`${USAGE}\n`);
  return code;
}
