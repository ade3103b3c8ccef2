/** What a call asks of the database, recorded for the tests that count statements and transactions. */
import type { Db } from '../src/db/client.ts';

/** Records what a call asks of the database: each statement's text, and 'tx' for each transaction. */
export function watch(db: Db): { asked: string[]; stop(): void } {
  const asked: string[] = [];
  const { query, tx, exec } = db;
  db.query = (sql, params) => {
    asked.push(sql);
    return query(sql, params);
  };
  db.tx = (work, options) => {
    asked.push('tx');
    return tx(work, options);
  };
  db.exec = (sql) => {
    asked.push(sql);
    return exec(sql);
  };
  return {
    asked,
    stop() {
      db.query = query;
      db.tx = tx;
      db.exec = exec;
    },
  };
}
