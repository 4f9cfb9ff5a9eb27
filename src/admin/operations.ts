import type { Config } from '../config.js';
import type { DatabaseHandle } from '../data/db.js';
import type { OperationRunner } from './channel.js';

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
export function serverOperationRunner(o: ServerRunnerOptions): OperationRunner {
  return async (name, args, progress) => {
    const op = findOperation(name);
    if (!op) throw new Error(`unknown operation ${name}`);
    o.logger.info({ op: name }, 'operator command');
    const result = await op({ handle: o.handle, config: o.config, progress, terminal: null }, args);
    await o.after();
    return result;
  };
}
