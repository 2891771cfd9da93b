import { strict as assert } from 'node:assert';
import { createSkillSchema } from '../../../src/core/skills/store/skillStoreSchema';
import { schemaDifference, storedAsCreated } from '../../../src/core/sql/schemaShape';
import { SqlDatabase } from '../../../src/core/sql/sqlDatabase';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';
import { createSchema as createToolSchema } from '../../../src/core/tools/index/toolIndexSql';

/**
 * The schema-shape check on open: a database whose tables are stored with exactly the statements
 * the code creates them with is answered without making a fresh database; any other is compared
 * column by column, so a schema changed without a version bump is still caught.
 */
describe('schema shape', () => {
  let engine: SqlEngine;
  before(async () => {
    engine = await loadSqlEngine();
  });
  const created = (createSchema: (db: SqlDatabase) => void) => {
    const db = new SqlDatabase(new engine.sql.Database());
    createSchema(db);
    return db;
  };

  it("a store's own fresh tables are recognised by their statements (skills, tools)", () => {
    for (const createSchema of [createSkillSchema, createToolSchema]) {
      const db = created(createSchema);
      assert.equal(storedAsCreated(db, createSchema), true);
      assert.equal(schemaDifference(db, createSchema, engine), undefined);
      db.close();
    }
  });

  it('a table stored with other text (a column added by a migration) is compared column by column, and passes when the columns agree', () => {
    const before = (db: SqlDatabase) => db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    const after = (db: SqlDatabase) => db.exec('CREATE TABLE t (\n  id INTEGER PRIMARY KEY,\n  name TEXT NOT NULL,\n  note TEXT\n)');
    const db = created(before);
    db.exec('ALTER TABLE t ADD COLUMN note TEXT');
    assert.equal(storedAsCreated(db, after), false);
    assert.equal(schemaDifference(db, after, engine), undefined);
    db.close();
  });

  it('a schema changed without a version bump is still found: the stored table lacks the new column', () => {
    const stored = created((db) => db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)'));
    const changed = (db: SqlDatabase) => db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT)');
    assert.equal(storedAsCreated(stored, changed), false);
    assert.equal(schemaDifference(stored, changed, engine), 'column "t.note" is missing');
    stored.close();
  });

  it('statements it cannot read as plain tables and indexes (a view) fall back to the whole comparison', () => {
    const schema = (db: SqlDatabase) =>
      db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL); CREATE VIEW v AS SELECT name FROM t WHERE name != ';'");
    const db = created(schema);
    assert.equal(storedAsCreated(db, schema), false);
    assert.equal(schemaDifference(db, schema, engine), undefined);
    db.close();
  });
});
