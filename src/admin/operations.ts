import type { Config } from '../config.js';
import type { DatabaseHandle } from '../data/db.js';

/**
 * Operator operations by name, so the same work runs in the CLI's own process or, when a server
 * holds the embedded database, inside that server (src/admin/channel.ts). Arguments and results
 * are plain JSON.
 */
export interface OperationContext {
  readonly handle: DatabaseHandle;
  readonly config: Config;
  progress(line: string): void;
  /** The operator's terminal when the operation runs in the CLI's own process on a TTY (for progress bars). */
  readonly terminal: NodeJS.WriteStream | null;
}

export type Operation = (ctx: OperationContext, args: Record<string, unknown>) => Promise<unknown>;

const registry = new Map<string, Operation>();

export function defineOperation<A extends Record<string, unknown>, R>(name: string, op: (ctx: OperationContext, args: A) => Promise<R>): (args: A) => [string, A] {
  registry.set(name, op as Operation);
  return (args) => [name, args];
}

export function findOperation(name: string): Operation | undefined {
  return registry.get(name);
}
