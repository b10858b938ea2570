import {
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresIntrospector,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's introspector reads every table of every schema of the database, and calls
 * has_schema_privilege on each schema's name: a schema dropped by another connection while the
 * statement runs fails it with "schema ... does not exist". The migrator asks it whether its
 * tables exist at every start, so another application's (or a test's) DROP SCHEMA on the same
 * cluster failed our migration. Ours reads only the tables of our schema, by its name.
 */
export class OwnSchemaIntrospector extends PostgresIntrospector {
  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: the introspector takes any database
    private readonly db: Kysely<any>,
    private readonly schema: string,
  ) {
    super(db);
  }

  override async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      SELECT nspname AS name FROM pg_catalog.pg_namespace WHERE nspname = ${this.schema}`.execute(this.db);
    return rows;
  }

  override async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      table: string;
      kind: string;
      column: string | null;
      type: string | null;
      type_schema: string | null;
      not_null: boolean | null;
      has_default: boolean | null;
    }>`
      SELECT c.relname AS table, c.relkind AS kind, a.attname AS column, t.typname AS type,
        tn.nspname AS type_schema, a.attnotnull AS not_null, a.atthasdef AS has_default
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
      LEFT JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace
      WHERE n.nspname = ${this.schema} AND c.relkind IN ('r', 'v', 'p')
        AND (${options.withInternalKyselyTables === true} OR c.relname NOT IN ('kysely_migration', 'kysely_migration_lock'))
      ORDER BY c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, isView: row.kind === 'v', schema: this.schema, columns: [] };
        tables.set(row.table, table);
      }
      if (row.column === null) continue;
      table.columns.push({
        name: row.column,
        dataType: row.type ?? '',
        ...(row.type_schema ? { dataTypeSchema: row.type_schema } : {}),
        // Read by nothing of ours (the migrator asks only for names), and pg_get_serial_sequence
        // is what raced.
        isAutoIncrementing: false,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default === true,
      });
    }
    return [...tables.values()];
  }
}
