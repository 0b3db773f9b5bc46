import type { Db } from './database/database.js';
import type { Addon, LicencesTable, PlansTable } from './database/schema.js';

export const ADDONS: readonly Addon[] = ['smart-staging', 'enhancer'];

export interface Plan {
  name: string;
  monthlyCredits: number;
  addons: Addon[];
}

/** A licence in force and the plan it grants. */
export interface ActiveLicence {
  licence: LicencesTable;
  plan: Plan;
}

function toPlan(row: Pick<PlansTable, 'name' | 'monthly_credits' | 'addons'>): Plan {
  return { name: row.name, monthlyCredits: row.monthly_credits, addons: JSON.parse(row.addons) as Addon[] };
}

export class LicenceRepository {
  constructor(private readonly db: Db) {}

  /** Creates the plan, or changes it: holders of a changed plan get its new credits from their next period on. */
  async definePlan(plan: Plan, now: string): Promise<void> {
    const columns = { monthly_credits: plan.monthlyCredits, addons: JSON.stringify(plan.addons), updated_at: now };
    await this.db
      .insertInto('plans')
      .values({ name: plan.name, ...columns, created_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet(columns))
      .execute();
  }

  async listPlans(): Promise<Plan[]> {
    return (await this.db.selectFrom('plans').select(['name', 'monthly_credits', 'addons']).orderBy('name').execute()).map(toPlan);
  }

  async findPlan(name: string): Promise<Plan | undefined> {
    const row = await this.db.selectFrom('plans').select(['name', 'monthly_credits', 'addons']).where('name', '=', name).executeTakeFirst();
    return row && toPlan(row);
  }

  /**
   * The user's licence in force at `now` (started, not ended) and its plan; the latest started when, exceptionally,
   * several are. What decides whether the user may create live keys and use add-ons.
   */
  async findActive(userId: string, now = new Date().toISOString()): Promise<ActiveLicence | undefined> {
    const row = await this.db
      .selectFrom('licences')
      .innerJoin('plans', 'plans.name', 'licences.plan_name')
      .selectAll('licences')
      .select(['plans.monthly_credits', 'plans.addons'])
      .where('licences.user_id', '=', userId)
      .where('licences.starts_at', '<=', now)
      .where((eb) => eb.or([eb('licences.ends_at', 'is', null), eb('licences.ends_at', '>', now)]))
      .orderBy('licences.starts_at', 'desc')
      .executeTakeFirst();
    if (!row) return undefined;
    const { monthly_credits, addons, ...licence } = row;
    return { licence, plan: toPlan({ name: licence.plan_name, monthly_credits, addons }) };
  }

  /**
   * Grants a licence: ends the user's licences in force when it starts, records it, and makes its first period's
   * credits due at its start (the balance row's next_grant_at; CreditRepository writes the grant), in one transaction.
   */
  async grant(licence: LicencesTable): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('licences')
        .set({ ends_at: licence.starts_at })
        .where('user_id', '=', licence.user_id)
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', licence.starts_at)]))
        .execute();
      await trx.insertInto('licences').values(licence).execute();
      await trx
        .insertInto('credit_balances')
        .values({ user_id: licence.user_id, balance: 0, next_grant_at: licence.starts_at, updated_at: licence.created_at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ next_grant_at: licence.starts_at, updated_at: licence.created_at }))
        .execute();
    });
  }
}
