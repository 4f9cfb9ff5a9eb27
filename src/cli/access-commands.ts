import type { Command } from 'commander';
import { CliError, output, runOperation } from './context.js';
import type { AccountInfo } from '../access/accounts.js';
import type { KeyInfo } from '../access/keys.js';
import { AccessError } from '../access/messages.js';
import { accessOps } from '../access/operations.js';
import { parseRateLimit, splitList, type PlanArgs, type PlanInfo } from '../access/plans.js';

/**
 * Runs one access operation: in this process, or inside the running server that holds the embedded
 * database. Access errors (unknown plan, duplicate email, ...) become CLI errors (message, exit 1).
 */
export async function run<R>(op: [string, Record<string, unknown>]): Promise<R> {
  try {
    return (await runOperation(op)) as R;
  } catch (err) {
    if (err instanceof AccessError) throw new CliError(err.message);
    throw err;
  }
}

const json = (o: { json?: boolean }) => Boolean(o.json);

function describePlan(p: PlanInfo): string {
  const scope = p.all ? 'all competitions' : [p.competitions.length ? `competitions ${p.competitions.join(', ')}` : '', p.clubs.length ? `clubs ${p.clubs.join(', ')}` : ''].filter(Boolean).join('; ');
  const limit = p.rate_limit === null ? 'rate limit: default (RATE_LIMIT)' : `rate limit: ${p.rate_limit} per window`;
  const unknown = [...(p.unknown_competitions ?? []), ...(p.unknown_clubs ?? [])];
  return `${p.name}: ${scope}; ${limit}${unknown.length ? ` (not in the loaded data: ${unknown.join(', ')})` : ''}`;
}

function describeAccount(a: AccountInfo): string {
  return `${a.email}  status=${a.status}  plan=${a.plan ?? '-'}  keys=${a.active_keys}${a.has_password ? '  password=yes' : ''}${a.currency ? `  currency=${a.currency}` : ''}`;
}

interface PlanOpts {
  name: string;
  all?: boolean;
  competitions?: string;
  clubs?: string;
  rateLimit?: string;
  allowUnknown?: boolean;
  json?: boolean;
}

/** Checked before any database is opened. `update` may change the limit alone (the scope is kept). */
function planArgs(verb: 'create' | 'update', o: PlanOpts): PlanArgs & Record<string, unknown> {
  if (o.all && (o.competitions !== undefined || o.clubs !== undefined)) throw new CliError('Give either --all or --competitions A,B [--clubs ID,ID], not both');
  const scoped = Boolean(o.all) || o.competitions !== undefined || o.clubs !== undefined;
  if (!scoped && (verb === 'create' || o.rateLimit === undefined)) {
    throw new CliError(verb === 'create' ? 'Give --all or --competitions A,B [--clubs ID,ID]' : 'Give --all, --competitions A,B [--clubs ID,ID] or --rate-limit N|default');
  }
  let rateLimit: number | null | undefined;
  try {
    rateLimit = o.rateLimit === undefined ? undefined : parseRateLimit(o.rateLimit);
  } catch (err) {
    if (err instanceof AccessError) throw new CliError(err.message);
    throw err;
  }
  if (verb === 'create' && rateLimit === null) rateLimit = undefined;
  return {
    name: o.name,
    ...(scoped ? { all: Boolean(o.all), competitions: splitList(o.competitions), clubs: splitList(o.clubs) } : {}),
    // JSON drops undefined on the way to a running server: unset keeps the plan's limit.
    ...(rateLimit === undefined ? {} : { rateLimit }),
    allowUnknown: Boolean(o.allowUnknown),
  };
}

export function registerAccessCommands(program: Command): void {
  const plans = program.command('plans').description('plans: which competitions and clubs an account may see');

  for (const [verb, op, text] of [
    ['create', accessOps.plansCreate, 'create a plan'],
    ['update', accessOps.plansUpdate, 'replace what an existing plan covers and/or set its rate limit; what is not given is kept (takes effect at once)'],
  ] as const) {
    plans
      .command(verb)
      .description(text)
      .requiredOption('--name <name>', 'plan name')
      .option('--all', 'every competition and club')
      .option('--competitions <ids>', 'competition ids, comma-separated (e.g. PREMIER_LEAGUE,LIGUE_1): their clubs and those clubs\u2019 players')
      .option('--clubs <ids>', 'extra club ids, comma-separated')
      .option(
        '--rate-limit <n>',
        verb === 'create'
          ? 'accepted requests per key in the rolling window (RATE_WINDOW_SECONDS) for every key on this plan; default: the RATE_LIMIT setting'
          : 'accepted requests per key in the rolling window for every key on this plan; "default" goes back to the RATE_LIMIT setting',
      )
      .option('--allow-unknown', 'accept competition and club ids that are not in the loaded data yet (e.g. before an import)')
      .option('--json', 'print JSON')
      .action(async (o: PlanOpts) => {
        const args = planArgs(verb, o);
        const plan = await run<PlanInfo>(op(args));
        output(json(o), plan, `${verb === 'create' ? 'Created' : 'Updated'} plan ${describePlan(plan)}`);
      });
  }

  plans
    .command('list')
    .description('list plans')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const all = await run<PlanInfo[]>(accessOps.plansList({}));
      output(json(o), all, all.length ? all.map(describePlan).join('\n') : 'No plans.');
    });

  const accounts = program.command('accounts').description('accounts: status (active, inactive, registered), plan, currency, password');

  accounts
    .command('create')
    .description('create an account')
    .requiredOption('--email <email>', 'email address (case-insensitive)')
    .option('--password <password>', 'password for POST /v1/auth/login')
    .option('--status <status>', 'active, inactive or registered', 'active')
    .option('--plan <name>', 'plan name (without one the account has no plan access)')
    .option('--json', 'print JSON')
    .action(async (o: { email: string; password?: string; status: string; plan?: string; json?: boolean }) => {
      const account = await run<AccountInfo>(accessOps.accountsCreate({ email: o.email, password: o.password, status: o.status, plan: o.plan }));
      output(json(o), account, `Created account ${describeAccount(account)}`);
    });

  accounts
    .command('set-status')
    .description('set the status of an account (takes effect within about a second)')
    .requiredOption('--email <email>', 'email address')
    .requiredOption('--status <status>', 'active, inactive or registered')
    .option('--json', 'print JSON')
    .action(async (o: { email: string; status: string; json?: boolean }) => {
      const account = await run<AccountInfo>(accessOps.accountsSetStatus({ email: o.email, status: o.status }));
      output(json(o), account, `Account ${describeAccount(account)}`);
    });

  accounts
    .command('set-plan')
    .description('put an account on a plan, or on none with --no-plan')
    .requiredOption('--email <email>', 'email address')
    .option('--plan <name>', 'plan name')
    .option('--no-plan', 'remove the plan (no plan access)')
    .option('--json', 'print JSON')
    .action(async (o: { email: string; plan?: string | false; json?: boolean }) => {
      if (o.plan === undefined) throw new CliError('Give --plan NAME or --no-plan');
      const plan = o.plan === false ? null : o.plan;
      const account = await run<AccountInfo>(accessOps.accountsSetPlan({ email: o.email, plan }));
      output(json(o), account, `Account ${describeAccount(account)}`);
    });

  accounts
    .command('set-currency')
    .description('set the currency answers use when a request names none (the web app shows money in it)')
    .requiredOption('--email <email>', 'email address')
    .requiredOption('--currency <code>', 'an ISO 4217 code (e.g. GBP); "default" goes back to EUR')
    .option('--json', 'print JSON')
    .action(async (o: { email: string; currency: string; json?: boolean }) => {
      const currency = o.currency.trim().toLowerCase() === 'default' ? null : o.currency;
      const account = await run<AccountInfo>(accessOps.accountsSetCurrency({ email: o.email, currency }));
      output(json(o), account, `Account ${describeAccount(account)}`);
    });

  accounts
    .command('set-password')
    .description('set the password used by POST /v1/auth/login')
    .requiredOption('--email <email>', 'email address')
    .requiredOption('--password <password>', 'new password')
    .option('--json', 'print JSON')
    .action(async (o: { email: string; password: string; json?: boolean }) => {
      const account = await run<AccountInfo>(accessOps.accountsSetPassword({ email: o.email, password: o.password }));
      output(json(o), account, `Password set for ${account.email}`);
    });

  accounts
    .command('list')
    .description('list accounts')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const all = await run<AccountInfo[]>(accessOps.accountsList({}));
      output(json(o), all, all.length ? all.map(describeAccount).join('\n') : 'No accounts.');
    });

  const keys = program.command('keys').description('API keys: shown once at creation, stored only as a hash');

  keys
    .command('create')
    .description('create a key for an account; prints {"key_id", "api_key"} (the key is not shown again)')
    .requiredOption('--email <email>', 'email address of the account')
    .option('--json', 'print JSON')
    .action(async (o: { email: string; json?: boolean }) => {
      const key = await run<{ key_id: string; api_key: string }>(accessOps.keysCreate({ email: o.email }));
      output(json(o), key, JSON.stringify(key));
    });

  keys
    .command('revoke')
    .description('revoke a key (takes effect within about a second)')
    .requiredOption('--key-id <id>', 'key id (key_...)')
    .option('--json', 'print JSON')
    .action(async (o: { keyId: string; json?: boolean }) => {
      const r = await run<{ key_id: string; revoked_at: string }>(accessOps.keysRevoke({ keyId: o.keyId }));
      output(json(o), r, `Revoked ${r.key_id} at ${r.revoked_at}`);
    });

  keys
    .command('list')
    .description('list the keys of an account (ids and dates, never the keys)')
    .requiredOption('--email <email>', 'email address of the account')
    .option('--json', 'print JSON')
    .action(async (o: { email: string; json?: boolean }) => {
      const all = await run<KeyInfo[]>(accessOps.keysList({ email: o.email }));
      output(
        json(o),
        all,
        all.length
          ? all.map((k) => `${k.key_id}  ${k.state}  created=${k.created_at}  last_used=${k.last_used_at ?? '-'}${k.expires_at ? `  expires=${k.expires_at}` : ''}`).join('\n')
          : 'No keys.',
      );
    });
}
