import { accessOps } from './access/operations.js';
import { ops } from './admin/catalog.js';
import { leagueOps } from './admin/leagues.js';
import { operationRegistry, registryRunner, type Operation, type ServerRunnerOptions } from './admin/operations.js';
import type { OperationRunner } from './admin/channel.js';

/**
 * Every operator operation, from each room's table: the one list the CLI and a running server's
 * admin channel look names up in. A room's new table is added here.
 */
export const OPERATIONS = operationRegistry(ops, leagueOps, accessOps);

export function findOperation(name: string): Operation | undefined {
  return OPERATIONS.get(name);
}

/** The admin channel's runner over every operation (see registryRunner). */
export function serverOperationRunner(o: ServerRunnerOptions): OperationRunner {
  return registryRunner(OPERATIONS, o);
}
