import { parseArgs } from 'node:util';

// Each command imports its own module when it runs (one dynamic import each), so `roomcraft --help` loads nothing
// but this file and `roomcraft keys create` never loads Fastify, sharp or onnxruntime. The configuration (TypeBox)
// is loaded by the commands that need it.

const USAGE = `Usage: roomcraft <command>

  serve                                   start the service (roles from ROOMCRAFT_ROLES, default api,worker)
  keys create --email E --kind test|live  create a user's API key; the key is printed alone on the last line
  keys revoke --prefix P                  revoke the one key whose prefix starts with P (or the whole key)
  plans define --name N --monthly-credits C [--addons smart-staging,enhancer]
                                          create or change a plan: credits granted each month, add-ons allowed
  plans list                              show the plans
  licences grant --email E --plan P       give a user the plan from now on (the subscription; live keys need one)
  credits grant --email E --amount N --reason R
                                          one-off credits on the user's ledger
  webhook-secret --email E                print the user's webhook signing secret
  users set-password --email E            set the password a user logs in to the dashboard with (read from
                                          stdin); the first user made from the command line is the administrator
  models install                          fetch and verify the models of the registry
  models list                             show every model: present, verified, licence
  run OP PHOTO [--field value …] [-o FILE] [--json] [--server URL --key KEY]
                                          process one photo with an operation (upscale, enhancer, declutter, …)
                                          and write the result beside it; without --server the service runs
                                          inside the command. roomcraft run --help for the operations and fields
  analyze PHOTO [--out overlay.png] [--json] [--lines auto|mlsd|lsd]
                                          camera, vanishing points, room layout and openings of a photo
  help                                    this text

Configuration comes from the environment; see docs/configuration.md.`;

type Env = Record<string, string | undefined>;

export async function runCli(argv: string[], env: Env): Promise<number> {
  const [command, sub] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return usage(0);
  try {
    if (command === 'run') {
      const { runCommand } = await import('./run.js');
      return await runCommand(argv.slice(1), env);
    }
    if (command === 'analyze') return await analyze(argv.slice(1), env);
    if (command === 'plans' || command === 'licences' || command === 'credits') {
      const { runBillingCommand } = await import('./billing-commands.js');
      return await runBillingCommand(command, argv.slice(1), env);
    }
    if (!['serve', 'keys', 'webhook-secret', 'models', 'users'].includes(command)) return usage(2);
    const flags = parseArgs({
      args: argv.slice(command === 'keys' || command === 'models' || command === 'users' ? 2 : 1),
      options: { email: { type: 'string' }, kind: { type: 'string' }, prefix: { type: 'string' }, help: { type: 'boolean' } },
      allowPositionals: false,
    }).values;
    if (flags.help) return usage(0);
    const { loadConfig } = await import('../config/config.js');
    const config = loadConfig(env);
    switch (command) {
      case 'serve': {
        const { serve } = await import('./serve.js');
        return await serve(config);
      }
      case 'keys': {
        if (sub !== 'create' && sub !== 'revoke') return usage(2);
        const { createKey, revokeKey } = await import('./keys.js');
        return sub === 'create' ? await createKey(config, flags.email, flags.kind) : await revokeKey(config, flags.prefix);
      }
      case 'users': {
        if (sub !== 'set-password') return usage(2);
        const { setPassword } = await import('./users.js');
        return await setPassword(config, flags.email);
      }
      case 'webhook-secret': {
        const { showWebhookSecret } = await import('./keys.js');
        return await showWebhookSecret(config, flags.email);
      }
      default: {
        if (sub !== 'install' && sub !== 'list') return usage(2);
        const { installModels, listModels } = await import('./models.js');
        return sub === 'install' ? await installModels(config) : await listModels(config);
      }
    }
  } catch (error) {
    // By name, so that the configuration module stays unloaded for the commands that do not need it.
    if ((error instanceof Error && error.name === 'ConfigError') || (error instanceof TypeError && 'code' in error)) {
      process.stderr.write(`roomcraft: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

async function analyze(args: string[], env: Env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { out: { type: 'string' }, json: { type: 'boolean' }, lines: { type: 'string' } },
    allowPositionals: true,
  });
  const [photo] = positionals;
  if (!photo || (values.lines && !['auto', 'mlsd', 'lsd'].includes(values.lines))) return usage(2);
  const { loadConfig } = await import('../config/config.js');
  const config = loadConfig(env);
  const { analyzePhoto } = await import('./analyze.js');
  return await analyzePhoto(config, photo, {
    ...(values.out ? { out: values.out } : {}),
    ...(values.json ? { json: true } : {}),
    ...(values.lines ? { lines: values.lines as 'auto' | 'mlsd' | 'lsd' } : {}),
  });
}

function usage(code: number): number {
  (code === 0 ? process.stdout : process.stderr).write(`${USAGE}\n`);
  return code;
}
