import { AppError } from '../errors.js';
import type { Config } from '../config/config.js';
import type { KeyOwner } from '../repositories/user-repository.js';
import type { Addon } from '../repositories/database/schema.js';
import {
  InsufficientCredits,
  TestCapReached,
  type CreditRepository,
  type JobAdmission,
  type OperationUsage,
  type UsageRow,
} from '../repositories/credit-repository.js';
import type { LicenceRepository, Plan } from '../repositories/licence-repository.js';
import { periodAt } from './licence-periods.js';
import { LICENCE_HINT } from './licence-service.js';

/**
 * The operations the spec bills "separately per request": each needs a plan that allows its add-on, and its price is
 * charged on a ledger line of its own (`addon:<name>`), apart from the operations the plan's credits are for.
 */
export const ADDON_OF_OPERATION: Readonly<Partial<Record<string, Addon>>> = {
  'smart-staging': 'smart-staging',
  'smart-staging-v2': 'smart-staging',
  enhancer: 'enhancer',
};

/** The ledger item of an operation's charge: `operation`, or its add-on's `addon:<name>`. */
export function ledgerItem(operation: string): string {
  const addon = ADDON_OF_OPERATION[operation];
  return addon ? `addon:${addon}` : 'operation';
}

const HOW_TO_GET_CREDITS =
  'credits come each period with a licence (`roomcraft licences grant --email E --plan P`) or from an administrator (`roomcraft credits grant --email E --amount N --reason R`)';

/** The job a request would make, as far as paying for it goes. */
export interface PricedJob {
  jobId: string;
  operation: string;
  credits: number;
}

/** The account of a key's owner, as GET /v1/account shows it. */
export interface AccountView {
  balance: number;
  plan: (Plan & { licensedSince: string }) | null;
  period: { start: string; end: string } | null;
  usage: OperationUsage[];
  testKeys: { dailyJobs: number; jobsToday: number };
}

/** The UTC day of an instant, YYYY-MM-DD. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * Whether a job may be made and at what cost. Live keys pay from the ledger (the charge itself is written in the job's
 * transaction, JobRepository.create); test keys pay nothing and are capped per day.
 */
export class CreditService {
  constructor(private readonly deps: { credits: CreditRepository; licences: LicenceRepository; config: Pick<Config, 'testKeys'> }) {}

  /**
   * Refuses now, before anything of the request is stored, what the job's transaction would refuse: an add-on the
   * plan does not allow (403), a cost the balance cannot cover (402), a test key past its daily cap (429). Returns
   * what the job's transaction must write to admit it; that check is the one that counts when requests race.
   */
  async admission(owner: KeyOwner, job: PricedJob, now: Date): Promise<JobAdmission> {
    if (owner.kind === 'test') {
      const day = utcDay(now);
      const cap = this.deps.config.testKeys.dailyJobs;
      if ((await this.deps.credits.testJobsOn(owner.userId, day)) >= cap) throw testCapError(cap, now);
      return { kind: 'test', userId: owner.userId, day, cap };
    }
    const addon = ADDON_OF_OPERATION[job.operation];
    if (addon) {
      const active = await this.deps.licences.findActive(owner.userId, now.toISOString());
      if (!active?.plan.addons.includes(addon)) {
        throw new AppError(
          'addon_not_in_plan',
          403,
          active
            ? `${job.operation} is billed per request as the add-on "${addon}", which the plan "${active.plan.name}" does not allow (its addons setting: ${active.plan.addons.join(', ') || 'none'}); an operator adds it with \`roomcraft plans define --name ${active.plan.name} --addons ${[...active.plan.addons, addon].join(',')}\``
            : `${job.operation} is billed per request as the add-on "${addon}", which needs a licence to a plan whose addons setting allows it; ${LICENCE_HINT}`,
        );
      }
    }
    const balance = await this.deps.credits.writeDueGrants(owner.userId, now.toISOString());
    if (balance < job.credits) throw insufficientCreditsError(job.credits, balance);
    return { kind: 'charge', charge: { userId: owner.userId, jobId: job.jobId, operation: job.operation, item: ledgerItem(job.operation), amount: job.credits } };
  }

  /** GET /v1/account: balance, plan, the licence's current period and what was spent in it by operation. */
  async account(userId: string, now = new Date()): Promise<AccountView> {
    const at = now.toISOString();
    const balance = await this.deps.credits.writeDueGrants(userId, at);
    const active = await this.deps.licences.findActive(userId, at);
    const period = active ? periodAt(active.licence.starts_at, at) : undefined;
    const day = utcDay(now);
    return {
      balance,
      plan: active ? { ...active.plan, licensedSince: active.licence.starts_at } : null,
      period: period ? { start: period.start, end: period.end } : null,
      // Without a licence, the calendar month so far.
      usage: await this.deps.credits.usageByOperation(userId, period?.start ?? `${day.slice(0, 7)}-01T00:00:00.000Z`, period?.end ?? '9999'),
      testKeys: { dailyJobs: this.deps.config.testKeys.dailyJobs, jobsToday: await this.deps.credits.testJobsOn(userId, day) },
    };
  }

  /** GET /v1/usage: the ledger from day `from` to day `to` (both included, UTC) summed per day, entry, item and operation. */
  usage(userId: string, from: string, to: string): Promise<UsageRow[]> {
    const end = new Date(`${to}T00:00:00.000Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    return this.deps.credits.usageByDay(userId, `${from}T00:00:00.000Z`, end.toISOString());
  }
}

/** The AppError of what the job's transaction refused (JobRepository.create), or the error itself. */
export function admissionError(error: unknown, now: Date): unknown {
  if (error instanceof InsufficientCredits) return insufficientCreditsError(error.cost, error.balance);
  if (error instanceof TestCapReached) return testCapError(error.cap, now);
  return error;
}

function insufficientCreditsError(cost: number, balance: number): AppError {
  return new AppError('insufficient_credits', 402, `this request costs ${cost} credits and the balance is ${balance}; ${HOW_TO_GET_CREDITS}`, {
    credits: { cost, balance },
  });
}

function testCapError(cap: number, now: Date): AppError {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return new AppError(
    'test_key_daily_limit',
    429,
    `test keys make at most ${cap} jobs a day per user (ROOMCRAFT_TEST_DAILY_JOBS); more tomorrow (UTC), or use a live key (${LICENCE_HINT})`,
    { retryAfterSeconds: Math.ceil((midnight - now.getTime()) / 1000) },
  );
}
