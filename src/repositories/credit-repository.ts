import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Db } from './database/database.js';
import type { CreditLedgerTable, Database, LedgerEntry } from './database/schema.js';
import { periodAt } from '../services/licence-periods.js';

/** What a job costs, on one ledger line: its operation's price, or a per-request add-on's (`addon:enhancer`, ...). */
export interface JobCharge {
  userId: string;
  jobId: string;
  operation: string;
  item: string;
  amount: number;
}

/** A charge the balance could not cover; nothing was written. */
export class InsufficientCredits extends Error {
  constructor(
    readonly cost: number,
    readonly balance: number,
  ) {
    super(`a charge of ${cost} credits exceeds the balance of ${balance}`);
  }
}

/** The test key's daily cap was reached; nothing was written. */
export class TestCapReached extends Error {
  constructor(readonly cap: number) {
    super(`the daily cap of ${cap} test-key jobs is reached`);
  }
}

/**
 * What lets a job in, decided in its insert's transaction: a live key's charge, or a test key's place under the day's
 * cap.
 */
export type JobAdmission = { kind: 'charge'; charge: JobCharge } | { kind: 'test'; userId: string; day: string; cap: number };

/** Per UTC day, entry, item and operation: how many ledger lines and their credits (signed). */
export interface UsageRow {
  date: string;
  entry: LedgerEntry;
  item: string;
  operation: string | null;
  lines: number;
  credits: number;
}

/** Per operation and item over a period: charges and refunds (refunds positive). */
export interface OperationUsage {
  operation: string;
  item: string;
  charges: number;
  refunds: number;
  /** Net credits spent: charged less refunded. */
  credits: number;
}

type Executor = Kysely<Database>;

/**
 * The credit ledger and its balance cache. Every change of a balance is written with its ledger line in one
 * transaction, so the balance always equals the sum of the user's ledger; the ledger is the record, the balance row
 * what makes a charge one conditional UPDATE (docs/decisions/0015-credits-ledger.md).
 */
export class CreditRepository {
  constructor(private readonly db: Db) {}

  /** The balance (0 for a user who never had credits) and when the next monthly grant is due. */
  async balanceOf(userId: string, executor: Executor = this.db): Promise<{ balance: number; nextGrantAt: string | null }> {
    const row = await executor
      .selectFrom('credit_balances')
      .select(['balance', 'next_grant_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return { balance: Number(row?.balance ?? 0), nextGrantAt: row?.next_grant_at ?? null };
  }

  /**
   * Writes the monthly grants of the user's licence that fell due by `now` and were not written yet (each period's
   * once: its line's dedupe key is the licence and the period's start), and moves next_grant_at past them. Called
   * before a charge is judged and when the account is shown, so periods are granted lazily but none is skipped.
   * Returns the balance.
   */
  async writeDueGrants(userId: string, now: string): Promise<number> {
    const { balance, nextGrantAt } = await this.balanceOf(userId);
    if (nextGrantAt === null || nextGrantAt > now) return balance;
    return this.db.transaction().execute(async (trx) => {
      // Taking the row first (an UPDATE, so PostgreSQL locks it) makes a second caller wait, then find nothing due.
      const claimed = await trx
        .updateTable('credit_balances')
        .set({ updated_at: now })
        .where('user_id', '=', userId)
        .where('next_grant_at', '<=', now)
        .returning('next_grant_at')
        .executeTakeFirst();
      const at = claimed?.next_grant_at;
      if (!at) return (await this.balanceOf(userId, trx)).balance;
      const licence = await trx
        .selectFrom('licences')
        .innerJoin('plans', 'plans.name', 'licences.plan_name')
        .select(['licences.id', 'licences.starts_at', 'licences.ends_at', 'plans.name', 'plans.monthly_credits'])
        .where('licences.user_id', '=', userId)
        .where('licences.starts_at', '<=', at)
        .where((eb) => eb.or([eb('licences.ends_at', 'is', null), eb('licences.ends_at', '>', at)]))
        .orderBy('licences.starts_at', 'desc')
        .executeTakeFirst();
      let due = at;
      while (licence && due <= now && (licence.ends_at === null || due < licence.ends_at)) {
        const period = periodAt(licence.starts_at, due);
        const amount = Number(licence.monthly_credits);
        if (amount > 0) {
          await this.move(trx, {
            user_id: userId,
            entry: 'grant',
            item: 'monthly',
            amount,
            job_id: null,
            operation: null,
            reason: `plan ${licence.name}: credits of the period from ${period.start}`,
            dedupe_key: `monthly:${licence.id}:${period.start}`,
            created_at: now,
          });
        }
        due = period.end;
      }
      const next = licence && (licence.ends_at === null || due < licence.ends_at) ? due : null;
      await trx.updateTable('credit_balances').set({ next_grant_at: next, updated_at: now }).where('user_id', '=', userId).execute();
      return (await this.balanceOf(userId, trx)).balance;
    });
  }

  /** An administrator's one-off grant (positive) of `amount` credits. Returns the balance after it. */
  async grant(userId: string, amount: number, reason: string, now: string): Promise<number> {
    return this.db.transaction().execute((trx) =>
      this.move(trx, { user_id: userId, entry: 'grant', item: 'one-off', amount, job_id: null, operation: null, reason, dedupe_key: null, created_at: now }),
    );
  }

  /**
   * Charges a job inside the caller's transaction (the job's insert): one UPDATE that takes the credits only when the
   * balance covers them, so of requests racing for the last credits no more pass than the balance pays for, on
   * SQLite (one writer) as on PostgreSQL (the second UPDATE waits for the first's row lock, then re-checks). Throws
   * InsufficientCredits, writing nothing, otherwise. Returns the balance after the charge.
   */
  async charge(trx: Executor, charge: JobCharge, now: string): Promise<number> {
    const taken = await trx
      .updateTable('credit_balances')
      .set((eb) => ({ balance: eb('balance', '-', charge.amount), updated_at: now }))
      .where('user_id', '=', charge.userId)
      .where('balance', '>=', charge.amount)
      .returning('balance')
      .executeTakeFirst();
    if (!taken) throw new InsufficientCredits(charge.amount, (await this.balanceOf(charge.userId, trx)).balance);
    await trx.insertInto('credit_ledger').values(
      ledgerLine({
        user_id: charge.userId,
        entry: 'charge',
        item: charge.item,
        amount: -charge.amount,
        balance_after: Number(taken.balance),
        job_id: charge.jobId,
        operation: charge.operation,
        reason: `job ${charge.jobId}`,
        dedupe_key: `charge:${charge.jobId}:${charge.item}`,
        created_at: now,
      }),
    ).execute();
    return Number(taken.balance);
  }

  /**
   * Refunds every charge of a job, inside the caller's transaction (the settle or the cancel that failed it). A job
   * with no charge line (a test key's, or one accepted before charging existed) refunds nothing; a charge is refunded
   * once (the refund's dedupe key is the charge's).
   */
  async refundJob(trx: Executor, jobId: string, reason: string, now: string): Promise<void> {
    const charges = await trx
      .selectFrom('credit_ledger')
      .select(['id', 'user_id', 'item', 'amount', 'operation'])
      .where('job_id', '=', jobId)
      .where('entry', '=', 'charge')
      .execute();
    for (const charge of charges) {
      await this.move(trx, {
        user_id: charge.user_id,
        entry: 'refund',
        item: charge.item,
        amount: -Number(charge.amount),
        job_id: jobId,
        operation: charge.operation,
        reason,
        dedupe_key: `refund:${charge.id}`,
        created_at: now,
      });
    }
  }

  /**
   * Admits a job inside its insert's transaction: charges it (returning the balance after the charge), or counts it
   * under the test keys' daily cap. Throws InsufficientCredits or TestCapReached, writing nothing, otherwise.
   */
  async admit(trx: Executor, admission: JobAdmission, now: string): Promise<number | undefined> {
    if (admission.kind === 'charge') return this.charge(trx, admission.charge, now);
    if (!(await this.countTestJob(trx, admission.userId, admission.day, admission.cap))) throw new TestCapReached(admission.cap);
    return undefined;
  }

  /** Counts a test-key job against the user's cap for the day; false, counting nothing, when the cap is reached. */
  async countTestJob(trx: Executor, userId: string, day: string, cap: number): Promise<boolean> {
    if (cap <= 0) return false;
    const counted = await trx
      .insertInto('test_key_usage')
      .values({ user_id: userId, day, jobs: 1 })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'day'])
          .doUpdateSet((eb) => ({ jobs: eb('test_key_usage.jobs', '+', 1) }))
          .where('test_key_usage.jobs', '<', cap),
      )
      .executeTakeFirst();
    return Number(counted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Test-key jobs the user made on `day`. */
  async testJobsOn(userId: string, day: string): Promise<number> {
    const row = await this.db.selectFrom('test_key_usage').select('jobs').where('user_id', '=', userId).where('day', '=', day).executeTakeFirst();
    return Number(row?.jobs ?? 0);
  }

  /** Charges and refunds of jobs between `from` (included) and `to` (excluded), per operation and item. */
  async usageByOperation(userId: string, from: string, to: string): Promise<OperationUsage[]> {
    const rows = await this.db
      .selectFrom('credit_ledger')
      .select((eb) => ['operation', 'item', 'entry', eb.fn.countAll<number | string>().as('lines'), eb.fn.sum<number | string>('amount').as('credits')])
      .where('user_id', '=', userId)
      .where('entry', 'in', ['charge', 'refund'])
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy(['operation', 'item', 'entry'])
      .execute();
    const usage = new Map<string, OperationUsage>();
    for (const row of rows) {
      const key = `${row.operation}\u0000${row.item}`;
      const entry = usage.get(key) ?? { operation: row.operation ?? '', item: row.item, charges: 0, refunds: 0, credits: 0 };
      if (row.entry === 'charge') entry.charges += Number(row.lines);
      else entry.refunds += Number(row.lines);
      entry.credits -= Number(row.credits);
      usage.set(key, entry);
    }
    return [...usage.values()].sort((a, b) => a.operation.localeCompare(b.operation) || a.item.localeCompare(b.item));
  }

  /** The ledger between `from` (included) and `to` (excluded) summed per UTC day, entry, item and operation. */
  async usageByDay(userId: string, from: string, to: string): Promise<UsageRow[]> {
    const date = sql<string>`substr(${sql.ref('created_at')}, 1, 10)`;
    const rows = await this.db
      .selectFrom('credit_ledger')
      .select((eb) => [
        date.as('date'),
        'entry',
        'item',
        'operation',
        eb.fn.countAll<number | string>().as('lines'),
        eb.fn.sum<number | string>('amount').as('credits'),
      ])
      .where('user_id', '=', userId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy([date, 'entry', 'item', 'operation'])
      .orderBy(date)
      .orderBy('entry')
      .orderBy('item')
      .orderBy('operation')
      .execute();
    return rows.map((row) => ({ ...row, lines: Number(row.lines), credits: Number(row.credits) }));
  }

  /** Adds `line.amount` to the balance and writes the line with the balance after it; returns that balance. */
  private async move(trx: Executor, line: Omit<CreditLedgerTable, 'id' | 'balance_after'>): Promise<number> {
    const updated = await trx
      .insertInto('credit_balances')
      .values({ user_id: line.user_id, balance: line.amount, next_grant_at: null, updated_at: line.created_at })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet((eb) => ({ balance: eb('credit_balances.balance', '+', line.amount), updated_at: line.created_at })),
      )
      .returning('balance')
      .executeTakeFirstOrThrow();
    const balance = Number(updated.balance);
    await trx.insertInto('credit_ledger').values(ledgerLine({ ...line, balance_after: balance })).execute();
    return balance;
  }
}

function ledgerLine(line: Omit<CreditLedgerTable, 'id'>): CreditLedgerTable {
  return { id: `cl_${crypto.randomUUID()}`, ...line };
}
