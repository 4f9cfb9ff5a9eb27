import type { Config } from '../config.js';
import type { DatabaseHandle } from '../data/db.js';
import type { Operation, OperationTable } from '../operation.js';
import type { OperationRunner } from './channel.js';

export type { Operation, OperationContext, OperationTable } from '../operation.js';
export { defineOperation } from '../operation.js';

/** Operations by name, built once from the rooms' tables (src/operations.ts). */
export type OperationRegistry = ReadonlyMap<string, Operation>;

export function operationRegistry(...tables: OperationTable[]): OperationRegistry {
  const registry = new Map<string, Operation>();
  for (const table of tables) {
    for (const op of Object.values(table)) {
      if (registry.has(op.opName)) throw new Error(`operation ${op.opName} is defined twice`);
      registry.set(op.opName, op.run);
    }
  }
  return registry;
}

export interface ServerRunnerOptions {
  readonly handle: DatabaseHandle;
  readonly config: Config;
  readonly logger: { info(obj: object, msg: string): void };
  /** Runs after each operation, before its answer is sent (the server re-reads the world). */
  readonly after: () => Promise<unknown>;
}

/**
 * How a running server carries out a command sent over its admin channel: in its own process, on its
 * own database handle, so an access change is in force on this server before the answer goes back.
 */
export function registryRunner(operations: OperationRegistry, o: ServerRunnerOptions): OperationRunner {
  return async (name, args, progress) => {
    const op = operations.get(name);
    if (!op) throw new Error(`unknown operation ${name}`);
    o.logger.info({ op: name }, 'operator command');
    const result = await op({ handle: o.handle, config: o.config, progress, terminal: null }, args);
    await o.after();
    return result;
  };
}
