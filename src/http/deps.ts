import type { KeyAuthenticator, LoginService, Principal, RateLimiter, Workspace, WorkspaceAccess, WorkspaceRight } from '../access/interface.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { ShortlistStore } from '../domain/shortlist.js';
import type { WebhookService } from '../domain/webhooks.js';
import type { WorkspaceStore } from '../domain/workspace.js';
import type { SnapshotSource } from '../domain/snapshot-source.js';
import type { AnalysisEngine } from '../engine/pool.js';
import type { RateTable } from '../money/rates.js';
import type { ModelBundle } from '../valuation/bundle.js';

export interface Readiness {
  ready: boolean;
  /** what it waits for, in words */
  reason: string;
}

/** A cache's look-ups since the start: answered from it, and not. */
export interface CacheCounts {
  readonly hits: number;
  readonly misses: number;
}

/** Counts kept by the layers below since the start, read by GET /metrics (http/metrics.ts). */
export interface OperationalCounts {
  /** Each cache of the layers below by name (the app's answer cache is counted by the app itself). */
  readonly caches: Readonly<Record<string, CacheCounts>>;
  /** Login attempts the login throttle refused. */
  loginRefusals(): number;
}

/** What the routes need from the layers below, handed in by app.ts (tests build it the same way). */
export interface HttpDeps {
  readonly version: string;
  /** The read model in force now; replaced as a whole when the data changes. */
  snapshot(): Snapshot;
  /** The rows and versions snapshot() was built from (the analysis workers build the same snapshot from them). */
  source(): SnapshotSource;
  /** The worker pool that runs simulations and recommendation screening. */
  readonly engine: AnalysisEngine;
  /** The exchange rates in force. */
  rates(): RateTable;
  /** The trained models in force; null only before the first training. */
  models(): ModelBundle | null;
  /** Whether this instance serves analyses at full speed now (GET /v1/ready). */
  readiness(): Readiness;
  readonly authenticator: KeyAuthenticator;
  readonly limiter: RateLimiter;
  readonly rateWindowSeconds: number;
  readonly login: LoginService;
  /** Each account's shortlist. */
  readonly shortlists: ShortlistStore;
  /** Each account's webhooks. */
  readonly webhooks: WebhookService;
  /** Lists, entries, notes, the activity feed and shadow squads of organisations and of accounts without one. */
  readonly workspaces: WorkspaceStore;
  /** Memberships and roles: who may do what (access/roles.ts), and the owners' member changes. */
  readonly workspaceAccess: WorkspaceAccess;
  /** Resolves when the database answers; rejects otherwise. */
  pingDatabase(): Promise<void>;
  /** Counts for the metrics; absent, those metrics are not offered. */
  readonly counts?: OperationalCounts;
  /** Milliseconds since the epoch; injectable for tests of the rolling window. */
  now(): number;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Set for routes with `config.workspace`, once the caller's role allows it. */
    workspace: Workspace | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a key and outside the rate limit. */
    public?: boolean;
    /** Needs a key but is outside the rate limit (signing out must work with a spent budget). */
    unmetered?: boolean;
    /** The workspace right the route needs; checked after the key, account and rate (http/workspace-hook.ts). */
    workspace?: WorkspaceRight;
  }
}
