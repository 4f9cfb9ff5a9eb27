/** What the rest of the service (app start-up, CLI) builds from access/; http/ sees only interface.ts. */
export type * from './interface.js';
export { createKeyAuthenticator, DbKeyAuthenticator, type AuthenticatorOptions } from './authenticator.js';
export { createLoginService, DbLoginService, type LoginOptions } from './login.js';
export { createRateLimiter, type CreateRateLimiterOptions } from './ratelimit/index.js';
export { createLoginThrottle, type LoginThrottle } from './throttle/index.js';
export { ensureBootstrapKey, createDemoLogin, ALL_PLAN_NAME, BOOTSTRAP_EMAIL, DEMO_EMAIL, DEMO_PLAN_NAME, DEMO_RATE_LIMIT } from './bootstrap.js';
export { ALL_COVERAGE, coverageOfPlan, isClubCovered, isCompetitionCovered, isPlayerCovered, type LeagueOf } from './plans.js';
export { KEY_MIN_LENGTH, KEY_MAX_LENGTH } from './keys.js';
export { MSG, AccessError } from './messages.js';
export { createWorkspaceAccess, ROLE_DENIED, NO_ORGANISATION } from './roles.js';
export { OrgError, setMember, removeMember, membersOf, type OrgMembers } from './organisations.js';
