/** The SQL store's templates under concurrency: a review and a submission of the same id, on PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTemplateStatus, submitTemplate } from '../../../../runtime/src/domain/templates.ts';
import { company, writer } from '../../../../runtime/test/store/conformance-fixtures.ts';
import { freshDatabase } from '../../../test/helpers.ts';
import { openSqlStore, type SqlStore } from './open.ts';

describe.skipIf(!process.env.DATABASE_URL)('template reviews on PostgreSQL', () => {
  let store: SqlStore;
  let drop = async () => {};
  beforeAll(async () => {
    const fresh = await freshDatabase('template_reviews');
    if (!fresh) throw new Error('DATABASE_URL is not set');
    drop = fresh.drop;
    // Two connections: the review and the submission each get one, and run at once.
    store = await openSqlStore({ databaseUrl: fresh.url, poolSize: 2 });
    await store.createCompany(company(1));
  });
  afterAll(async () => {
    await store?.close();
    await drop();
  });

  it('a review and a submission of the same id, together, always leave the template with the review', async () => {
    const co = company(1);
    const w = writer();
    const rounds = 50;
    for (let round = 0; round < rounds; round++) {
      const wamId = `wam-race-${round}`;
      const now = w.tick();
      // Which one starts first alternates; the database decides which one goes first.
      const review = () => applyTemplateStatus(store, { wamId, event: 'REJECTED', reason: 'INVALID_FORMAT' }, now);
      const submission = () => submitTemplate(store, w.ctx, co, { template_name: `race_${round}`, phone_number: '6363978748', wam_id: wamId });
      await Promise.all(round % 2 === 0 ? [review(), submission()] : [submission(), review()]);
    }
    const { items } = await store.listTemplates(co.uuid, { page: 1, limit: rounds });
    expect(items).toHaveLength(rounds);
    expect(items.filter((t) => t.status !== 'rejected' || t.reason !== 'INVALID_FORMAT')).toEqual([]);
  });
});
