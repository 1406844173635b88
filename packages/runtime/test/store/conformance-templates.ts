/** Store conformance: templates and their status at WhatsApp. Registered by `describeStoreConformance`. */
import { describe, expect, it } from 'vitest';
import type { CurrentStore } from './conformance.ts';
import { company, seedCompany, template, writer } from './conformance-fixtures.ts';

/** Registers the template tests. */
export function describeTemplateConformance(store: CurrentStore): void {
  describe('templates', () => {
    it('inserts a template, then updates it in place keeping its id and created_at', async () => {
      const { uuid } = await seedCompany(store());
      const w = writer();
      const first = await store().upsertTemplate(template(uuid, 'tpl_1', w.ctx.now));
      expect(first).toEqual(template(uuid, 'tpl_1', w.ctx.now));
      const later = w.tick();
      const second = await store().upsertTemplate(template(uuid, 'tpl_2', later, { wam_id: null, status: 'failed', reason: 'no wam_id' }));
      expect(second).toEqual({
        ...template(uuid, 'tpl_1', w.ctx.now),
        wam_id: null,
        status: 'failed',
        reason: 'no wam_id',
        created_at: first.created_at,
        updated_at: later,
      });
      const other = await store().upsertTemplate(template(uuid, 'tpl_3', later, { phone_number: '999999' }));
      expect(other.id).toBe('tpl_3');
    });

    it("lists a company's templates oldest first, a page at a time, and no other company's", async () => {
      const a = await seedCompany(store(), 1);
      const b = await seedCompany(store(), 2);
      const w = writer();
      const first = w.ctx.now;
      const second = w.tick();
      await store().upsertTemplate(template(a.uuid, 'tpl_b', second, { template_name: 'later' }));
      await store().upsertTemplate(template(a.uuid, 'tpl_a', first));
      await store().upsertTemplate(template(b.uuid, 'tpl_c', first));
      // Made in one instant: in the order they were made, not by id; an update keeps a template's place.
      await store().upsertTemplate(template(a.uuid, 'tpl_9', second, { template_name: 'same instant', phone_number: '1' }));
      await store().upsertTemplate(template(a.uuid, 'tpl_0', second, { template_name: 'same instant', phone_number: '2' }));
      await store().upsertTemplate(template(a.uuid, 'tpl_x', second, { template_name: 'same instant', phone_number: '1', wam_id: 'wam-2' }));
      const all = await store().listTemplates(a.uuid, { page: 1, limit: 10 });
      expect(all.total).toBe(4);
      expect(all.items.map((t) => t.id)).toEqual(['tpl_a', 'tpl_b', 'tpl_9', 'tpl_0']);
      expect(all.items[2]).toMatchObject({ wam_id: 'wam-2', created_at: second });
      const page2 = await store().listTemplates(a.uuid, { page: 2, limit: 3 });
      expect(page2).toEqual({ items: [expect.objectContaining({ id: 'tpl_0' })], total: 4 });
      expect(await store().listTemplates(a.uuid, { page: 3, limit: 3 })).toEqual({ items: [], total: 4 });
      expect(await store().listTemplates(company(3).uuid, { page: 1, limit: 10 })).toEqual({ items: [], total: 0 });
    });

    it("sets the status, reason and updated_at of every company's template with the wam_id, and counts them", async () => {
      const a = await seedCompany(store(), 1);
      const b = await seedCompany(store(), 2);
      const w = writer();
      const made = w.ctx.now;
      await store().upsertTemplate(template(a.uuid, 'tpl_a1', made, { phone_number: '1', wam_id: 'wam-shared' }));
      await store().upsertTemplate(template(a.uuid, 'tpl_a2', made, { phone_number: '2', wam_id: 'wam-shared' }));
      await store().upsertTemplate(template(b.uuid, 'tpl_b1', made, { wam_id: 'wam-shared' }));
      await store().upsertTemplate(template(b.uuid, 'tpl_b2', made, { template_name: 'other', wam_id: 'wam-other' }));
      const later = w.tick();
      expect(await store().setTemplateStatus('wam-shared', 'rejected', 'INVALID_FORMAT', later)).toBe(3);
      const aList = (await store().listTemplates(a.uuid, { page: 1, limit: 10 })).items;
      const bList = (await store().listTemplates(b.uuid, { page: 1, limit: 10 })).items;
      for (const t of [...aList, bList[0]]) expect(t).toMatchObject({ status: 'rejected', reason: 'INVALID_FORMAT', created_at: made, updated_at: later });
      expect(bList[1]).toEqual(template(b.uuid, 'tpl_b2', made, { template_name: 'other', wam_id: 'wam-other' }));
      expect(await store().setTemplateStatus('wam-unknown', 'approved', null, later)).toBe(0);
    });

    it('keeps each template’s status when given none, setting only the reason', async () => {
      const { uuid } = await seedCompany(store());
      const w = writer();
      await store().upsertTemplate(template(uuid, 'tpl_1', w.ctx.now, { phone_number: '1', status: 'approved' }));
      await store().upsertTemplate(template(uuid, 'tpl_2', w.ctx.now, { phone_number: '2', status: 'paused' }));
      const later = w.tick();
      expect(await store().setTemplateStatus('wam-1', null, 'flagged for quality', later)).toBe(2);
      const { items } = await store().listTemplates(uuid, { page: 1, limit: 10 });
      expect(items.map((t) => [t.status, t.reason, t.updated_at])).toEqual([
        ['approved', 'flagged for quality', later],
        ['paused', 'flagged for quality', later],
      ]);
    });

    it('keeps a review of an id no template has yet, for the template submitted with it later', async () => {
      const { uuid } = await seedCompany(store());
      const w = writer();
      expect(await store().setTemplateStatus('wam-early', 'rejected', 'INVALID_FORMAT', w.ctx.now)).toBe(0);
      const submitted = await store().transaction(async (tx) => {
        const review = await tx.templateReview('wam-early', w.tick());
        expect(review).toEqual({ status: 'rejected', reason: 'INVALID_FORMAT' });
        return tx.upsertTemplate(template(uuid, 'tpl_1', w.ctx.now, { wam_id: 'wam-early', status: review.status ?? 'submitted', reason: review.reason }));
      });
      expect(submitted).toMatchObject({ wam_id: 'wam-early', status: 'rejected', reason: 'INVALID_FORMAT' });
      // A later review reaches the template as well as the kept review.
      expect(await store().setTemplateStatus('wam-early', 'approved', null, w.tick())).toBe(1);
      expect(await store().templateReview('wam-early', w.ctx.now)).toEqual({ status: 'approved', reason: null });
    });

    it('keeps the kept status when a review gives none, taking its reason', async () => {
      const w = writer();
      await store().setTemplateStatus('wam-early', 'paused', null, w.ctx.now);
      await store().setTemplateStatus('wam-early', null, 'flagged for quality', w.tick());
      expect(await store().templateReview('wam-early', w.ctx.now)).toEqual({ status: 'paused', reason: 'flagged for quality' });
      // Before any review with a status, there is none to keep.
      await store().setTemplateStatus('wam-flagged', null, 'flagged for quality', w.tick());
      expect(await store().templateReview('wam-flagged', w.ctx.now)).toEqual({ status: null, reason: 'flagged for quality' });
    });

    it('reads no review for an id WhatsApp never reported on, as often as it is asked', async () => {
      const w = writer();
      expect(await store().templateReview('wam-unknown', w.ctx.now)).toEqual({ status: null, reason: null });
      expect(await store().transaction((tx) => tx.templateReview('wam-unknown', w.tick()))).toEqual({ status: null, reason: null });
      await store().setTemplateStatus('wam-unknown', 'approved', null, w.tick());
      expect(await store().templateReview('wam-unknown', w.ctx.now)).toEqual({ status: 'approved', reason: null });
    });

    it('undoes a status set in a transaction that throws', async () => {
      const { uuid } = await seedCompany(store());
      const w = writer();
      const made = w.ctx.now;
      await store().upsertTemplate(template(uuid, 'tpl_1', made));
      await expect(
        store().transaction(async (tx) => {
          await tx.setTemplateStatus('wam-1', 'disabled', null, w.tick());
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await store().listTemplates(uuid, { page: 1, limit: 10 })).items).toEqual([template(uuid, 'tpl_1', made)]);
      expect(await store().templateReview('wam-1', w.tick())).toEqual({ status: null, reason: null });
    });
  });
}
