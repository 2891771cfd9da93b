import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import { SqlDatabase } from '../../../src/core/sql/sqlDatabase';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';

/**
 * Every store keeps text through `SqlDatabase`: what a caller writes is what it reads back, also
 * after the database is saved and opened again. A text that starts with U+FEFF keeps it (sql.js's
 * decoder alone drops it); a lone surrogate, which UTF-8 cannot hold, reads back as the one U+FFFD
 * it was bound as, and the same value bound again finds the row.
 */
describe('text written and read back through the store (SqlDatabase)', () => {
  let engine: SqlEngine;
  before(async () => {
    engine = await loadSqlEngine();
  });

  const wellFormed = (text: string): string => (text as unknown as { toWellFormed(): string }).toWellFormed();

  function table(): SqlDatabase {
    const db = new SqlDatabase(new engine.sql.Database());
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    return db;
  }

  /** Any UTF-16 text, lone surrogates and leading U+FEFF included (fast-check's "binary" units are any code unit). */
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }).map((text) => `\uFEFF${text}`),
    fc.string({ unit: 'binary', maxLength: 40 }).map((text) => `\uFEFF\uFEFF${text}`),
  );

  it('reads back every text as written (well-formed), by position, by name and after a save', () => {
    fc.assert(
      fc.property(fc.array(anyText, { minLength: 1, maxLength: 8 }), (texts) => {
        const db = table();
        texts.forEach((text, id) => db.run('INSERT INTO t (id, v) VALUES (?, ?)', [id, text]));
        const expected = texts.map(wellFormed);
        assert.deepEqual(
          db.arrays('SELECT v FROM t ORDER BY id').map((row) => row[0]),
          expected,
        );
        texts.forEach((text, id) => {
          assert.equal(db.get('SELECT v FROM t WHERE id = $id', { $id: id })?.v, expected[id]);
          // The same value bound again finds its row.
          assert.ok(db.all('SELECT id FROM t WHERE v = ?', [text]).some((row) => row.id === id));
        });
        const reopened = new SqlDatabase(new engine.sql.Database(db.export()));
        assert.deepEqual(
          reopened.arrays('SELECT v FROM t ORDER BY id').map((row) => row[0]),
          expected,
        );
        db.close();
        reopened.close();
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a description that starts with U+FEFF, and writes a lone surrogate as one U+FFFD', () => {
    const db = table();
    db.run('INSERT INTO t (id, v) VALUES (?, ?)', [1, '\uFEFFReviews pull requests']);
    db.run('INSERT INTO t (id, v) VALUES ($id, $v)', { $id: 2, $v: 'cut \uD83D here' });
    assert.deepEqual(
      db.arrays('SELECT v FROM t ORDER BY id').map((row) => row[0]),
      ['\uFEFFReviews pull requests', 'cut \uFFFD here'],
    );
    db.close();
  });
});
