/**
 * Opens the database named by DATABASE_URL: `sqlite:PATH` (the embedded default) or
 * `postgres://…`. The dialect is decided here, from the URL, and kept on the Store. The repositories
 * of store/ branch on it where a hot path writes its SQL by hand; the rooms above store/ write no SQL
 * of their own and only hand `dialect` or the SQLite handle on to those repositories (the delivery
 * actor, the batch tasks), except `boundaries/boundary-job.ts`, which imports in-process into an
 * in-memory SQLite database that no thread could open. The PostgreSQL driver is loaded with the
 * first query, so the embedded default never holds it in memory.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type Driver, type SqliteDialectConfig } from "kysely";
import { LRUCache } from "lru-cache";
import type pg from "pg";
import type { Database, Db } from "./database.ts";

export type Dialect = "sqlite" | "postgres";

export interface Store {
  db: Db;
  dialect: Dialect;
  /** The raw SQLite handle, for statements prepared once on hot paths (see api-keys.repository.ts). */
  sqlite?: SQLite.Database;
  /** The PostgreSQL pool, for named statements on hot paths: created (once) by the first call. */
  postgres?: () => Promise<pg.Pool>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL connections at most (default 10); a batch pool thread, beside the service's own, keeps two. */
  pool?: number;
  /**
   * SQLite: transactions take the write lock when they begin (see ImmediateTransactions). For a
   * connection on a thread of its own (a batch lane thread): there a wait for the lock holds only
   * that thread. Two connections on one thread must not: one waiting synchronously for the lock
   * would stop the other's transaction from ever finishing.
   */
  immediateTransactions?: boolean;
  /**
   * SQLite: whether this connection's commits run the WAL's checkpoints at SQLite's usual 1,000
   * pages (true, the default), or leave them to the connections that write in bulk (the batch lane
   * threads, an import thread) and run one only past LEFT_CHECKPOINT_PAGES, should none of them
   * write. For the answering thread: a commit that checkpoints copies the pages other connections
   * wrote into the database file and waits on the disk, on the thread that commits.
   */
  checkpoints?: boolean;
  /**
   * SQLite: the most this connection's page cache holds, in MiB; unset, better-sqlite3's build sets
   * 16 MiB. Every connection, on every thread, has a cache of its own, and malloc keeps what a full
   * one took after it is emptied.
   */
  pageCacheMb?: number;
}

/**
 * The WAL size, in pages, at which a connection that leaves checkpoints to others runs one itself:
 * 64 MiB at SQLite's 4 KiB pages. A service that runs no batch work reaches it only after hours of
 * usage counts, and the checkpoint then copies little.
 */
const LEFT_CHECKPOINT_PAGES = 16_384;

/**
 * SQLite transactions that take the write lock when they begin. Several connections write one file
 * (the service's, each batch lane thread's, an import thread's, the CLI's), and a transaction begun
 * DEFERRED that reads and then writes fails at once with SQLITE_BUSY when another connection has
 * committed in between: busy_timeout does not apply to it. BEGIN IMMEDIATE waits for the lock up to
 * busy_timeout instead (chunk claims in the batch lane lost this way, measured).
 */
class ImmediateTransactions extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}

/** Statements kept per connection: every query kysely writes is one of a few hundred texts (probe and insert lists of a few sizes among them). */
const STATEMENTS_KEPT = 500;

/**
 * The connection as kysely sees it, each SQL text prepared once and its statement kept (the
 * STATEMENTS_KEPT most recently used). kysely prepares a statement for every query it runs, and a
 * statement holds its compiled program in SQLite's memory, outside V8's heap, until V8 collects the
 * wrapper: a batch thread, whose heap is collected seldom, held tens of megabytes of statements after
 * three jobs, tens of thousands of them never finalized (heaptrack; docs/operations/benchmarks.md).
 * A kept statement is bound afresh on each run (better-sqlite3 clears its bindings after every one),
 * so it holds no values; one busy with an iteration is not handed out again.
 */
function preparedOnce(database: SQLite.Database): SqliteDialectConfig["database"] {
  const kept = new LRUCache<string, SQLite.Statement>({ max: STATEMENTS_KEPT });
  return {
    close: () => database.close(),
    prepare(text: string) {
      let statement = kept.get(text);
      if (statement === undefined || statement.busy) {
        statement = database.prepare(text);
        kept.set(text, statement);
      }
      return statement;
    },
  };
}

function openSqlite(path: string, options: OpenOptions): Store {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL lets the CLI write (revoke a key, suspend an org) while the server reads.
  database.pragma("journal_mode = WAL");
  database.pragma("busy_timeout = 5000");
  database.pragma("foreign_keys = ON");
  if (options.checkpoints === false) database.pragma(`wal_autocheckpoint = ${LEFT_CHECKPOINT_PAGES}`);
  // A negative cache_size is in KiB.
  if (options.pageCacheMb !== undefined) database.pragma(`cache_size = -${Math.round(options.pageCacheMb * 1024)}`);
  const config = { database: preparedOnce(database) };
  const db = new Kysely<Database>({ dialect: options.immediateTransactions ? new ImmediateTransactions(config) : new SqliteDialect(config) });
  return { db, dialect: "sqlite", sqlite: database, close: () => db.destroy() };
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Creates the `?schema=` named in the URL on first use, so several services (or test runs) can
 * share one database, each in its own schema. Two instances starting at once may both try:
 * the loser of that race sees the schema exist and carries on.
 */
async function ensureSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    const exists = await pool.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
    if (exists.rowCount === 0) throw error;
  }
}

function openPostgres(url: string, options: OpenOptions): Store {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema");
  parsed.searchParams.delete("schema");
  if (schema !== null && !SCHEMA_NAME.test(schema)) {
    throw new Error(`DATABASE_URL ?schema= must be a lower-case SQL identifier (a-z, 0-9, _), got ${JSON.stringify(schema)}`);
  }
  const createPool = async () => {
    const { default: driver } = await import("pg");
    const created = new driver.Pool({
      connectionString: parsed.toString(),
      max: options.pool ?? 10,
      ...(schema && { options: `-c search_path=${schema}` }),
    });
    try {
      if (schema) await ensureSchema(created, schema);
    } catch (error) {
      await created.end();
      throw error;
    }
    return created;
  };
  let pool: Promise<pg.Pool> | undefined;
  // kysely calls the pool factory once, before its first query, so the schema exists before any migration runs.
  // A failed start is not kept: the next query tries again.
  const preparedPool = () =>
    (pool ??= createPool().catch((error: unknown) => {
      pool = undefined;
      throw error;
    }));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparedPool }) });
  return { db, dialect: "postgres", postgres: preparedPool, close: () => db.destroy() };
}

export function openStore(databaseUrl: string, options: OpenOptions = {}): Store {
  if (databaseUrl.startsWith("sqlite:")) return openSqlite(databaseUrl.slice("sqlite:".length), options);
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgres(databaseUrl, options);
  throw new Error(`unsupported DATABASE_URL: ${databaseUrl}`);
}
