import { Type } from '@sinclair/typebox';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import { utcDay, type CreditService } from '../../services/credit-service.js';
import { requireOwner } from '../plugins/authentication.js';
import { COMMON_PROBLEMS } from '../schemas/problem.js';
import { EXPECTED } from '../validation-messages.js';

/** Days GET /v1/usage covers when the query names none: the last 30, today included. */
const DEFAULT_USAGE_DAYS = 30;
/** The longest span one GET /v1/usage answers, in days. */
const MAX_USAGE_DAYS = 366;
const DAY_MS = 86_400_000;

const Day = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date', description, [EXPECTED]: 'a date as YYYY-MM-DD' });

const PlanSchema = Type.Object({
  name: Type.String(),
  monthlyCredits: Type.Integer({ description: 'Credits granted at the start of each period.' }),
  addons: Type.Array(Type.Union([Type.Literal('smart-staging'), Type.Literal('enhancer')]), {
    description: 'The per-request add-ons the plan allows: smart staging (v1 and v2), the enhancer.',
  }),
  licensedSince: Type.String({ description: 'Start of the licence: its periods begin on this day of each month.' }),
});

const AccountSchema = Type.Object({
  balance: Type.Integer({ description: 'Credits available: the sum of the ledger (grants, charges, refunds).' }),
  plan: Type.Union([PlanSchema, Type.Null()], { description: 'The licence in force; null without one (test keys only).' }),
  period: Type.Union([Type.Object({ start: Type.String(), end: Type.String() }), Type.Null()], {
    description: 'The licence’s current monthly period (start included, end excluded).',
  }),
  usage: Type.Array(
    Type.Object({
      operation: Type.String(),
      item: Type.String({ description: '`operation`, or `addon:smart-staging` / `addon:enhancer` for add-ons billed per request.' }),
      charges: Type.Integer({ description: 'Jobs charged.' }),
      refunds: Type.Integer({ description: 'Of those, refunded (the job failed or was cancelled).' }),
      credits: Type.Integer({ description: 'Credits spent: charged less refunded.' }),
    }),
    { description: 'This period’s jobs of live keys by operation (without a licence: this calendar month’s).' },
  ),
  testKeys: Type.Object({
    dailyJobs: Type.Integer({ description: 'Jobs a day the test keys may make (ROOMCRAFT_TEST_DAILY_JOBS).' }),
    jobsToday: Type.Integer({ description: 'Jobs the test keys made today (UTC).' }),
  }),
});

const UsageSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  days: Type.Array(
    Type.Object({
      date: Type.String({ description: 'UTC day, YYYY-MM-DD.' }),
      entry: Type.Union([Type.Literal('grant'), Type.Literal('charge'), Type.Literal('refund')]),
      item: Type.String({ description: '`operation`, `addon:<name>`, `monthly` or `one-off`.' }),
      operation: Type.Union([Type.String(), Type.Null()]),
      lines: Type.Integer({ description: 'Ledger lines summed (jobs, for charges and refunds).' }),
      credits: Type.Integer({ description: 'Their credits, signed: grants and refunds positive, charges negative.' }),
    }),
  ),
});

/** The balance, plan and usage of the key's owner: GET /v1/account and GET /v1/usage. */
export function registerAccountRoutes(app: HttpApp, deps: { credits: Pick<CreditService, 'account' | 'usage'> }): void {
  app.get(
    '/v1/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Credits balance, plan, current period and this period’s usage by operation of the key’s owner.',
        security: [{ bearerAuth: [] }],
        response: { 200: { description: 'The account.', content: { 'application/json': { schema: AccountSchema } } }, ...COMMON_PROBLEMS },
      },
    },
    async (request) => deps.credits.account(requireOwner(request).userId),
  );

  app.get(
    '/v1/usage',
    {
      schema: {
        tags: ['account'],
        summary: 'The key owner’s credit ledger summed per UTC day, entry (grant, charge, refund), item and operation.',
        description: `\`from\` and \`to\` are UTC days, both included; by default the last ${DEFAULT_USAGE_DAYS} days. At most ${MAX_USAGE_DAYS} days.`,
        security: [{ bearerAuth: [] }],
        querystring: Type.Object({ from: Type.Optional(Day('First day, included.')), to: Type.Optional(Day('Last day, included; today by default.')) }),
        response: { 200: { description: 'Daily totals.', content: { 'application/json': { schema: UsageSchema } } }, ...COMMON_PROBLEMS },
      },
    },
    async (request) => {
      const owner = requireOwner(request);
      const query = request.query as { from?: string; to?: string };
      const to = query.to ?? utcDay(new Date());
      const from = query.from ?? utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_USAGE_DAYS - 1) * DAY_MS));
      const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
      if (!(span >= 1 && span <= MAX_USAGE_DAYS)) {
        const message = `from must be on or before to, at most ${MAX_USAGE_DAYS} days apart (got ${from} to ${to})`;
        throw new AppError('validation_failed', 400, message, { fieldErrors: [{ field: '/from', message }] });
      }
      return { from, to, days: await deps.credits.usage(owner.userId, from, to) };
    },
  );
}
