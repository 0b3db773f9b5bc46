import type { Config } from '../config/config.js';
import { withBilling } from './billing.js';

/**
 * `roomcraft licences grant`: the user subscribes to the plan from now on (ending the licence they had), gets its
 * first period's credits, and may create live keys.
 */
export async function grantLicence(config: Config, email: string | undefined, plan: string | undefined): Promise<number> {
  if (!email || !plan) {
    process.stderr.write('usage: roomcraft licences grant --email E --plan P\n');
    return 2;
  }
  const granted = await withBilling(config, ({ licences }) => licences.grant(email, plan));
  if ('missing' in granted) {
    process.stderr.write(
      granted.missing === 'user'
        ? `No user ${email}: a user comes with their first key (roomcraft keys create --email ${email} --kind test) or a sign-up.\n`
        : `No plan ${plan}: roomcraft plans list shows the plans, roomcraft plans define makes one.\n`,
    );
    return 1;
  }
  process.stdout.write(
    `${email} holds the plan ${granted.plan.name} from now on (${granted.plan.monthlyCredits} credits a month); balance: ${granted.balance} credits.\n` +
      `Live keys: roomcraft keys create --email ${email} --kind live\n`,
  );
  return 0;
}
