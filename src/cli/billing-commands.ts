import { parseArgs } from 'node:util';

type Env = Record<string, string | undefined>;

const USAGE = `usage: roomcraft plans define --name N --monthly-credits C [--addons smart-staging,enhancer]
       roomcraft plans list
       roomcraft licences grant --email E --plan P
       roomcraft credits grant --email E --amount N --reason "…"`;

/** `roomcraft plans …`, `licences …` and `credits …`: what an operator sells and grants (docs/api.md, Credits). */
export async function runBillingCommand(command: 'plans' | 'licences' | 'credits', args: string[], env: Env): Promise<number> {
  const [sub, ...rest] = args;
  const flags = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'monthly-credits': { type: 'string' },
      addons: { type: 'string' },
      email: { type: 'string' },
      plan: { type: 'string' },
      amount: { type: 'string' },
      reason: { type: 'string' },
    },
    allowPositionals: false,
  }).values;
  const { loadConfig } = await import('../config/config.js');
  const config = loadConfig(env);
  if (command === 'plans' && sub === 'define') {
    const { definePlan } = await import('./plans.js');
    return definePlan(config, flags.name, flags['monthly-credits'], flags.addons);
  }
  if (command === 'plans' && sub === 'list') {
    const { listPlans } = await import('./plans.js');
    return listPlans(config);
  }
  if (command === 'licences' && sub === 'grant') {
    const { grantLicence } = await import('./licences.js');
    return grantLicence(config, flags.email, flags.plan);
  }
  if (command === 'credits' && sub === 'grant') {
    const { grantCredits } = await import('./credits.js');
    return grantCredits(config, flags.email, flags.amount, flags.reason);
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}
