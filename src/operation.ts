import type { Config } from './config.js';
import type { DatabaseHandle } from './data/db.js';

/**
 * What an operator operation is: a name, JSON arguments and a result, so the same work runs in the
 * CLI's own process or, when a server holds the embedded database, inside that server
 * (src/admin/channel.ts). Each room exports a table of its operations; src/operations.ts lists the
 * tables. Defining one registers nothing.
 */
export interface OperationContext {
  readonly handle: DatabaseHandle;
  readonly config: Config;
  progress(line: string): void;
  /** The operator's terminal when the operation runs in the CLI's own process on a TTY (for progress bars). */
  readonly terminal: NodeJS.WriteStream | null;
}

export type Operation = (ctx: OperationContext, args: Record<string, unknown>) => Promise<unknown>;

export interface NamedOperation {
  readonly opName: string;
  readonly run: Operation;
}

/** A defined operation: call it with its arguments for the `[name, args]` a runner takes. */
export type OperationCall<A> = ((args: A) => [string, A]) & NamedOperation;

/** A room's operations by a short key (the CLI's handle on them). */
export type OperationTable = Readonly<Record<string, NamedOperation>>;

export function defineOperation<A extends Record<string, unknown>, R>(name: string, op: (ctx: OperationContext, args: A) => Promise<R>): OperationCall<A> {
  const call = (args: A): [string, A] => [name, args];
  return Object.assign(call, { opName: name, run: op as Operation });
}
