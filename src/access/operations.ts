import { defineOperation } from '../operation.js';
import { createAccount, listAccounts, setAccountCurrency, setAccountPassword, setAccountPlan, setAccountStatus, type CreateAccountArgs } from './accounts.js';
import { createKey, listKeys, revokeKey } from './keys.js';
import { createPlan, listPlans, updatePlan, type PlanArgs } from './plans.js';
import { addMemberByName, createOrganisation, removeMemberByName } from './organisations.js';

/**
 * The access commands as named operations, so the CLI runs them in its own process or, when a
 * server holds the embedded database, inside that server (src/admin/channel.ts). Importing this
 * module registers nothing: src/operations.ts lists this table with the others.
 */
type Json<T> = T & Record<string, unknown>;

export const accessOps = {
  plansCreate: defineOperation('access.plans.create', ({ handle }, a: Json<PlanArgs>) => createPlan(handle.db, a)),
  plansUpdate: defineOperation('access.plans.update', ({ handle }, a: Json<PlanArgs>) => updatePlan(handle.db, a)),
  plansList: defineOperation('access.plans.list', ({ handle }, _a: Record<string, never>) => listPlans(handle.db)),
  accountsCreate: defineOperation('access.accounts.create', ({ handle }, a: Json<CreateAccountArgs>) => createAccount(handle.db, a)),
  accountsSetStatus: defineOperation('access.accounts.set-status', ({ handle }, a: { email: string; status: string }) => setAccountStatus(handle.db, a)),
  accountsSetPlan: defineOperation('access.accounts.set-plan', ({ handle }, a: { email: string; plan: string | null }) => setAccountPlan(handle.db, a)),
  accountsSetCurrency: defineOperation('access.accounts.set-currency', ({ handle }, a: { email: string; currency: string | null }) => setAccountCurrency(handle.db, a)),
  accountsSetPassword: defineOperation('access.accounts.set-password', ({ handle }, a: { email: string; password: string }) => setAccountPassword(handle.db, a)),
  accountsList: defineOperation('access.accounts.list', ({ handle }, _a: Record<string, never>) => listAccounts(handle.db)),
  keysCreate: defineOperation('access.keys.create', ({ handle }, a: { email: string }) => createKey(handle.db, a)),
  keysRevoke: defineOperation('access.keys.revoke', ({ handle }, a: { keyId: string }) => revokeKey(handle.db, a)),
  keysList: defineOperation('access.keys.list', ({ handle }, a: { email: string }) => listKeys(handle.db, a)),
  orgsCreate: defineOperation('access.orgs.create', ({ handle }, a: { name: string; owner: string }) => createOrganisation(handle.db, a)),
  orgsAddMember: defineOperation('access.orgs.add-member', ({ handle }, a: { name: string; email: string; role: string }) => addMemberByName(handle.db, a)),
  orgsRemoveMember: defineOperation('access.orgs.remove-member', ({ handle }, a: { name: string; email: string }) => removeMemberByName(handle.db, a)),
};
