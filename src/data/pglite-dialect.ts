import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';

/**
 * Kysely over PGlite with one connection handed out at a time. PGlite is a single session: without
 * this, a query of one request would run inside another's open transaction (and an import's
 * long transaction would swallow every write made meanwhile).
 */
class SerialConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const res = await this.client.query<R>(compiled.sql, [...compiled.parameters]);
    const counted = res.affectedRows !== undefined && compiled.query.kind !== 'SelectQueryNode';
    return counted ? { rows: res.rows, numAffectedRows: BigInt(res.affectedRows!) } : { rows: res.rows };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }
}

class SerialDriver implements Driver {
  private tail: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<DatabaseConnection, () => void>();

  constructor(private readonly client: PGlite) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const turn = new Promise<void>((r) => (release = r));
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    await previous;
    const conn = new SerialConnection(this.client);
    this.waiting.set(conn, release);
    return conn;
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const release = this.waiting.get(conn);
    this.waiting.delete(conn);
    release?.();
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    await this.tail;
  }
}

export class SerialPGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new SerialDriver(this.client);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
