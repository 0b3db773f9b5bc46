import type { Config } from '../config/config.js';
import type { Addon } from '../repositories/database/schema.js';
import { ADDONS } from '../repositories/licence-repository.js';
import { withBilling } from './billing.js';

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** `roomcraft plans define`: creates a plan or changes it (its holders get the new credits from their next period). */
export async function definePlan(config: Config, name: string | undefined, monthlyCredits: string | undefined, addons: string | undefined): Promise<number> {
  const credits = Number(monthlyCredits);
  const wanted = (addons ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  const unknown = wanted.filter((a) => !ADDONS.includes(a as Addon));
  if (!name || !NAME.test(name) || monthlyCredits === undefined || !Number.isSafeInteger(credits) || credits < 0 || unknown.length > 0) {
    process.stderr.write(
      `usage: roomcraft plans define --name N --monthly-credits C [--addons ${ADDONS.join(',')}]\n` +
        '  N: lower-case letters, digits, - and _; C: a whole number of credits granted each month, 0 or more' +
        (unknown.length > 0 ? `\n  unknown add-on: ${unknown.join(', ')}` : '') +
        '\n',
    );
    return 2;
  }
  const plan = { name, monthlyCredits: credits, addons: [...new Set(wanted as Addon[])] };
  await withBilling(config, ({ licences }) => licences.definePlan(plan));
  process.stdout.write(`Plan ${plan.name}: ${plan.monthlyCredits} credits a month; add-ons: ${plan.addons.join(', ') || 'none'}.\n`);
  return 0;
}

/** `roomcraft plans list`: one plan a line. */
export async function listPlans(config: Config): Promise<number> {
  const plans = await withBilling(config, ({ licences }) => licences.listPlans());
  if (plans.length === 0) process.stdout.write('No plans yet: roomcraft plans define --name N --monthly-credits C [--addons …]\n');
  for (const plan of plans) {
    process.stdout.write(`${plan.name}\t${plan.monthlyCredits} credits/month\tadd-ons: ${plan.addons.join(',') || 'none'}\n`);
  }
  return 0;
}
