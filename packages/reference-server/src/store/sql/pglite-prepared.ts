/**
 * Prepared reads for PGlite. `PGlite.query()` parses, plans and describes its statement on every
 * call, in five protocol exchanges with the WebAssembly backend; for a short read that is most of
 * the work. This prepares each distinct SELECT once as a named statement and runs it with one
 * Bind/Execute/Sync exchange, as node-postgres does with named statements on PostgreSQL. Results
 * are built the way `query()` builds them (same parsers, same row modes). Unlike `query()`, a read
 * does not ask PGlite to sync its file system afterwards: the store runs PGlite on the node file
 * system or in memory, where that sync does nothing, and a read has nothing to persist.
 */
import { type PGlite, protocol, type QueryOptions, type Results, types } from '@electric-sql/pglite';

type Query = (sql: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;

interface Statement {
  name: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

interface Message {
  name: string;
}

/** Named statements kept at most; the oldest is closed to make room. */
const MAX_STATEMENTS = 500;
/** What gets prepared: reads. Writes, DDL and anything else go through `query()` as before. */
const READ = /^\s*select\b/i;
/** `cached plan must not change result type`: a prepared statement outlived a schema change. */
const STALE_PLAN = '0A000';
const STALE = Symbol('stale statement');

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Wraps `query` (PGlite's own, bound to `client`) so that reads outside transactions run as prepared
 * statements. Use the returned function in its place.
 */
export function withPreparedReads(client: PGlite, query: Query): Query {
  const statements = new Map<string, Statement>();
  let made = 0;
  const exchange = (parts: Uint8Array[]) => client.execProtocolStream(concat(parts), { syncToFs: false }) as Promise<Message[]>;

  async function prepare(sql: string): Promise<Statement> {
    if (statements.size >= MAX_STATEMENTS) {
      const [oldest, statement] = statements.entries().next().value as [string, Statement];
      statements.delete(oldest);
      await exchange([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]);
    }
    const name = `engagekit_read_${++made}`;
    const messages = await exchange([serialize.parse({ name, text: sql, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]);
    const params = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
    const rows = messages.find((m) => m.name === 'rowDescription') as { fields: { name: string; dataTypeID: number }[] } | undefined;
    const statement = {
      name,
      paramTypes: params?.dataTypeIDs ?? [],
      fields: rows?.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) ?? [],
    };
    statements.set(sql, statement);
    return statement;
  }

  async function run(sql: string, params: unknown[], options: QueryOptions | undefined): Promise<Results | typeof STALE> {
    const statement = statements.get(sql) ?? (await prepare(sql));
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const oid = statement.paramTypes[i] as number;
      const serializer = options?.serializers?.[oid] ?? client.serializers[oid];
      return serializer ? serializer(value) : String(value);
    });
    let messages: Message[];
    try {
      messages = await exchange([serialize.bind({ statement: statement.name, values: values as string[] }), serialize.execute({}), serialize.sync()]);
    } catch (error) {
      if ((error as { code?: unknown }).code !== STALE_PLAN) throw error;
      statements.delete(sql);
      await exchange([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]);
      return STALE;
    }
    return results(messages, statement.fields, options);
  }

  function results(messages: Message[], fields: Statement['fields'], options: QueryOptions | undefined): Results {
    const parsers = fields.map(({ dataTypeID }) => options?.parsers?.[dataTypeID] ?? client.parsers[dataTypeID] ?? types.parsers[dataTypeID]);
    const read = (values: (string | null)[], i: number) => {
      const value = values[i] as string | null;
      const parser = parsers[i];
      return value === null ? null : parser ? parser(value, (fields[i] as { dataTypeID: number }).dataTypeID) : value;
    };
    const rows: unknown[] = [];
    let rowCount: number | undefined;
    for (const message of messages) {
      if (message.name === 'dataRow') {
        const values = (message as unknown as { fields: (string | null)[] }).fields;
        if (options?.rowMode === 'array') {
          rows.push(values.map((_, i) => read(values, i)));
        } else {
          const row: Record<string, unknown> = {};
          for (let i = 0; i < values.length; i++) row[(fields[i] as { name: string }).name] = read(values, i);
          rows.push(row);
        }
      } else if (message.name === 'commandComplete') {
        const count = Number.parseInt((message as unknown as { text: string }).text.split(' ').pop() ?? '', 10);
        if (!Number.isNaN(count)) rowCount = count;
      }
    }
    return { rows, fields, affectedRows: 0, ...(rowCount === undefined ? {} : { rowCount }) } as Results;
  }

  return async (sql, params = [], options) => {
    if (!READ.test(sql) || options?.blob || options?.paramTypes) return query(sql, params, options);
    // The same exclusivity as query(): after any open transaction, one exchange at a time.
    const result = await client._runExclusiveTransaction(() => client._runExclusiveQuery(() => run(sql, params, options)));
    return result === STALE ? query(sql, params, options) : result;
  };
}
