import type { Command } from 'commander';
import { output } from './context.js';
import { run } from './access-commands.js';
import type { OrgMembers } from '../access/organisations.js';
import { accessOps } from '../access/operations.js';

function describe(o: OrgMembers): string {
  return `${o.organisation}: ${o.members.map((m) => `${m.email} (${m.role})`).join(', ') || 'no members'}`;
}

/** `touchline orgs ...`: organisations, their members and roles (EXTENSIONS "Organisations, roles and shared lists"). */
export function registerOrgsCommands(program: Command): void {
  const orgs = program.command('orgs').description('organisations: a recruitment department sharing lists and a shadow squad; roles owner, scout, viewer');

  orgs
    .command('create')
    .description('create an organisation with its first owner (an account in no organisation)')
    .requiredOption('--name <name>', 'organisation name')
    .requiredOption('--owner <email>', 'email of the owner\u2019s account')
    .option('--json', 'print JSON')
    .action(async (o: { name: string; owner: string; json?: boolean }) => {
      const org = await run<OrgMembers>(accessOps.orgsCreate({ name: o.name, owner: o.owner }));
      output(Boolean(o.json), org, `Created organisation ${describe(org)}`);
    });

  orgs
    .command('add-member')
    .description('add an account to an organisation, or change its role there')
    .requiredOption('--name <name>', 'organisation name')
    .requiredOption('--email <email>', 'email of the account')
    .requiredOption('--role <role>', 'owner, scout or viewer')
    .option('--json', 'print JSON')
    .action(async (o: { name: string; email: string; role: string; json?: boolean }) => {
      const org = await run<OrgMembers>(accessOps.orgsAddMember({ name: o.name, email: o.email, role: o.role }));
      output(Boolean(o.json), org, `Organisation ${describe(org)}`);
    });

  orgs
    .command('remove-member')
    .description('remove an account from an organisation (its access to the shared lists ends at once)')
    .requiredOption('--name <name>', 'organisation name')
    .requiredOption('--email <email>', 'email of the account')
    .option('--json', 'print JSON')
    .action(async (o: { name: string; email: string; json?: boolean }) => {
      const org = await run<OrgMembers>(accessOps.orgsRemoveMember({ name: o.name, email: o.email }));
      output(Boolean(o.json), org, `Organisation ${describe(org)}`);
    });
}
