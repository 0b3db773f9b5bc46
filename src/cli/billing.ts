import { openDatabase } from '../repositories/database/database.js';
import { UserRepository } from '../repositories/user-repository.js';
import { LicenceRepository } from '../repositories/licence-repository.js';
import { CreditRepository } from '../repositories/credit-repository.js';
import { LicenceService } from '../services/licence-service.js';
import type { Config } from '../config/config.js';

/** What the plans, licences and credits commands work with, on the configured database. */
export interface Billing {
  users: UserRepository;
  licences: LicenceService;
  credits: CreditRepository;
}

export async function withBilling<T>(config: Config, use: (billing: Billing) => Promise<T>): Promise<T> {
  const database = await openDatabase(config);
  try {
    const users = new UserRepository(database.db);
    const credits = new CreditRepository(database.db);
    return await use({ users, credits, licences: new LicenceService({ licences: new LicenceRepository(database.db), users, credits }) });
  } finally {
    await database.close();
  }
}
