import crypto from 'node:crypto';
import type { LicenceRepository, Plan } from '../repositories/licence-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { CreditRepository } from '../repositories/credit-repository.js';

/** What tells a user without a licence how to get one. */
export const LICENCE_HINT = 'an administrator grants one with `roomcraft licences grant --email E --plan P`';

/**
 * Plans and licences. There is no payment processor: an administrator's grant is the subscription. A processor would
 * call grant() from its "subscription started" webhook with its own name and subscription id (docs/decisions/0015).
 */
export class LicenceService {
  constructor(
    private readonly deps: { licences: LicenceRepository; users: Pick<UserRepository, 'findByEmail'>; credits: CreditRepository },
  ) {}

  /** A production (live) key needs a licence in force; a test key never does. */
  async canCreateLiveKey(userId: string): Promise<boolean> {
    return (await this.deps.licences.findActive(userId)) !== undefined;
  }

  definePlan(plan: Plan): Promise<void> {
    return this.deps.licences.definePlan(plan, new Date().toISOString());
  }

  listPlans(): Promise<Plan[]> {
    return this.deps.licences.listPlans();
  }

  /**
   * Gives the user of `email` the plan `planName` from now on (ending the licence they had), and writes its first
   * period's credits at once. Undefined, granting nothing, for an unknown user or plan.
   */
  async grant(
    email: string,
    planName: string,
    source: { grantedBy: string; externalRef?: string } = { grantedBy: 'cli' },
  ): Promise<{ userId: string; plan: Plan; balance: number } | { missing: 'user' | 'plan' }> {
    const user = await this.deps.users.findByEmail(email);
    if (!user) return { missing: 'user' };
    const plan = await this.deps.licences.findPlan(planName);
    if (!plan) return { missing: 'plan' };
    const now = new Date().toISOString();
    // The periods of the licence this one ends that fell due meanwhile are granted first: none is skipped.
    await this.deps.credits.writeDueGrants(user.id, now);
    await this.deps.licences.grant({
      id: `lic_${crypto.randomUUID()}`,
      user_id: user.id,
      plan_name: plan.name,
      starts_at: now,
      ends_at: null,
      granted_by: source.grantedBy,
      external_ref: source.externalRef ?? null,
      created_at: now,
    });
    const balance = await this.deps.credits.writeDueGrants(user.id, now);
    return { userId: user.id, plan, balance };
  }
}
