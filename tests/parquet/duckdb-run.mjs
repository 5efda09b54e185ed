// Runs SQL through DuckDB (@duckdb/node-api, installed by setup-duckdb.sh into CACHE_DIR) for the
// Parquet tests: every statement of SQL_FILE (separated by ";" at a line end) in order, then writes
// the last statement's result as JSON {"columns": [...], "rows": [[...], ...]} to OUT_FILE.
// BIGINT/INTEGER values come as decimal strings (exact), DOUBLE/FLOAT as JSON numbers (shortest
// round-trip text, exact), BOOLEAN as true/false, NULL as null.
// Usage: node duckdb-run.mjs CACHE_DIR SQL_FILE OUT_FILE
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [cacheDir, sqlFile, outFile] = process.argv.slice(2);
const require = createRequire(path.resolve(cacheDir) + '/');
const { DuckDBInstance } = require('@duckdb/node-api');

const sql = fs.readFileSync(sqlFile, 'utf8');
const statements = sql.split(/;\s*\n/).map((s) => s.trim()).filter((s) => s.length > 0);
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
for (const s of statements.slice(0, -1))
  await connection.run(s);
const reader = await connection.runAndReadAll(statements[statements.length - 1]);
fs.writeFileSync(outFile, JSON.stringify({ columns: reader.columnNames(), rows: reader.getRowsJson() }));
