import type { Config } from '../config/config.js';
import { withBilling } from './billing.js';

/** `roomcraft credits grant`: one-off credits, written on the user's ledger with the reason. */
export async function grantCredits(config: Config, email: string | undefined, amount: string | undefined, reason: string | undefined): Promise<number> {
  const credits = Number(amount);
  if (!email || !Number.isSafeInteger(credits) || credits <= 0 || !reason?.trim()) {
    process.stderr.write('usage: roomcraft credits grant --email E --amount N --reason "…"   (N: a whole number of credits, 1 or more)\n');
    return 2;
  }
  const balance = await withBilling(config, async ({ users, credits: ledger }) => {
    const user = await users.findByEmail(email);
    return user && ledger.grant(user.id, credits, reason.trim(), new Date().toISOString());
  });
  if (balance === undefined) {
    process.stderr.write(`No user ${email}.\n`);
    return 1;
  }
  process.stdout.write(`Granted ${credits} credits to ${email}; balance: ${balance} credits.\n`);
  return 0;
}
