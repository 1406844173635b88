/** Templates: what WhatsApp's status events make of them, and when a campaign may use one. */
import type { TemplateStatus } from '@engagekit/contract';
import { describe, expect, it } from 'vitest';
import { company, writer } from '../../test/store/conformance-fixtures.ts';
import { createMemoryStore } from '../store/memory/store.ts';
import type { Store } from '../store/ports.ts';
import type { CompanyRecord } from '../store/types.ts';
import { createCampaign, type NewCampaign } from './campaigns.ts';
import { applyTemplateStatus, listTemplates, submitTemplate } from './templates.ts';

async function withTemplate(status?: TemplateStatus, reason: string | null = null) {
  const store = createMemoryStore();
  const co = company(1);
  await store.createCompany(co);
  const w = writer();
  await submitTemplate(store, w.ctx, co, { template_name: 'welcome', phone_number: '6363978748', wam_id: 'wam-1' });
  if (status) await store.setTemplateStatus('wam-1', status, reason, w.ctx.now);
  return { store, co, w };
}

async function theTemplate(store: Store, co: CompanyRecord) {
  const { items } = await listTemplates(store, co, { page: 1, limit: 10 });
  return items[0];
}

describe('applyTemplateStatus', () => {
  it.each([
    ['PENDING', 'approved', 'submitted', null],
    ['APPROVED', 'submitted', 'approved', null],
    ['REJECTED', 'submitted', 'rejected', 'INVALID_FORMAT'],
    ['PAUSED', 'approved', 'paused', null],
    ['DISABLED', 'paused', 'disabled', null],
    ['REINSTATED', 'paused', 'approved', null],
  ] as const)('%s moves a %s template to %s', async (event, from, to, reason) => {
    const { store, co, w } = await withTemplate(from, 'an earlier reason');
    const at = w.tick();
    expect(await applyTemplateStatus(store, { wamId: 'wam-1', event, reason: 'INVALID_FORMAT' }, at)).toBe(1);
    expect(await theTemplate(store, co)).toMatchObject({ status: to, reason, updated_at: at });
  });

  it('FLAGGED keeps the status and sets the reason', async () => {
    const { store, co, w } = await withTemplate('approved');
    const at = w.tick();
    expect(await applyTemplateStatus(store, { wamId: 'wam-1', event: 'FLAGGED', reason: 'low quality' }, at)).toBe(1);
    expect(await theTemplate(store, co)).toMatchObject({ status: 'approved', reason: 'low quality', updated_at: at });
  });

  it('a rejection without a reason keeps none', async () => {
    const { store, co, w } = await withTemplate();
    await applyTemplateStatus(store, { wamId: 'wam-1', event: 'REJECTED', reason: null }, w.tick());
    expect(await theTemplate(store, co)).toMatchObject({ status: 'rejected', reason: null });
  });

  it.each(['IN_APPEAL', 'approved', 'toString', ''])('changes nothing on the unknown event %j', async (event) => {
    const { store, co, w } = await withTemplate();
    const before = await theTemplate(store, co);
    expect(await applyTemplateStatus(store, { wamId: 'wam-1', event, reason: 'x' }, w.tick())).toBe(0);
    expect(await theTemplate(store, co)).toEqual(before);
  });

  it('changes nothing for a wam_id no template has', async () => {
    const { store, co, w } = await withTemplate();
    const before = await theTemplate(store, co);
    expect(await applyTemplateStatus(store, { wamId: 'wam-unknown', event: 'APPROVED', reason: null }, w.tick())).toBe(0);
    expect(await theTemplate(store, co)).toEqual(before);
  });
});

describe('submitTemplate', () => {
  async function newCompany() {
    const store = createMemoryStore();
    const co = company(1);
    await store.createCompany(co);
    return { store, co, w: writer() };
  }
  const welcome = { template_name: 'welcome', phone_number: '6363978748', wam_id: 'wam-1' };

  it('takes the status and reason of a review that came before it', async () => {
    const { store, co, w } = await newCompany();
    expect(await applyTemplateStatus(store, { wamId: 'wam-1', event: 'REJECTED', reason: 'INVALID_FORMAT' }, w.ctx.now)).toBe(0);
    const submitted = await submitTemplate(store, { ...w.ctx, now: w.tick() }, co, welcome);
    expect(submitted).toMatchObject({ wam_id: 'wam-1', status: 'rejected', reason: 'INVALID_FORMAT' });
    expect(await theTemplate(store, co)).toEqual(submitted);
  });

  it('takes the status kept when a flag came after it, with the flag’s reason', async () => {
    const { store, co, w } = await newCompany();
    await applyTemplateStatus(store, { wamId: 'wam-1', event: 'APPROVED', reason: null }, w.ctx.now);
    await applyTemplateStatus(store, { wamId: 'wam-1', event: 'FLAGGED', reason: 'low quality' }, w.tick());
    expect(await submitTemplate(store, w.ctx, co, welcome)).toMatchObject({ status: 'approved', reason: 'low quality' });
  });

  it('is submitted when no review came, and failed without a wam_id whatever came', async () => {
    const { store, co, w } = await newCompany();
    await applyTemplateStatus(store, { wamId: 'wam-2', event: 'APPROVED', reason: null }, w.ctx.now);
    expect(await submitTemplate(store, w.ctx, co, welcome)).toMatchObject({ status: 'submitted', reason: null });
    expect(await submitTemplate(store, w.ctx, co, { template_name: 'other', phone_number: '6363978748' })).toMatchObject({ wam_id: null, status: 'failed' });
  });

  it('reads the review in the transaction it runs in', async () => {
    const { store, co, w } = await newCompany();
    await expect(
      store.transaction(async (tx) => {
        await applyTemplateStatus(tx, { wamId: 'wam-1', event: 'PAUSED', reason: null }, w.ctx.now);
        expect(await submitTemplate(tx, w.ctx, co, welcome)).toMatchObject({ status: 'paused' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await submitTemplate(store, w.ctx, co, welcome)).toMatchObject({ status: 'submitted' });
  });
});

describe('createCampaign with requireUsableTemplates', () => {
  const campaign = (template_name: string): NewCampaign => ({
    name: `launch ${template_name}`,
    schedule_type: 'once',
    schedule: '2026-01-05T09:00:00.000Z',
    template_payload: { template_name, language: 'en', header_variable: [], body_variable: [], variables: {} },
  });
  const strict = { requireUsableTemplates: true };

  it('refuses a template the company never submitted, naming none of its statuses', async () => {
    const { store, co, w } = await withTemplate();
    expect(await createCampaign(store, w.ctx, co, campaign('never'), strict)).toEqual({ outcome: 'template_not_usable', templateName: 'never', statuses: [] });
  });

  it.each(['rejected', 'paused', 'disabled', 'failed'] as const)('refuses a template whose every submission is %s', async (status) => {
    const { store, co, w } = await withTemplate(status);
    expect(await createCampaign(store, w.ctx, co, campaign('welcome'), strict)).toEqual({
      outcome: 'template_not_usable',
      templateName: 'welcome',
      statuses: [status],
    });
  });

  it.each(['submitted', 'approved'] as const)('takes a %s template', async (status) => {
    const { store, co, w } = await withTemplate(status);
    expect(await createCampaign(store, w.ctx, co, campaign('welcome'), strict)).toMatchObject({ outcome: 'created' });
  });

  it('takes a template usable on one phone number though refused on another', async () => {
    const { store, co, w } = await withTemplate('rejected');
    await submitTemplate(store, w.ctx, co, { template_name: 'welcome', phone_number: '+14155550100', wam_id: 'wam-2' });
    expect(await createCampaign(store, w.ctx, co, campaign('welcome'), strict)).toMatchObject({ outcome: 'created' });
  });

  it("does not count another company's template", async () => {
    const { store, w } = await withTemplate('approved');
    const other = company(2);
    await store.createCompany(other);
    expect(await createCampaign(store, w.ctx, other, campaign('welcome'), strict)).toMatchObject({ outcome: 'template_not_usable', statuses: [] });
  });

  it('keeps the rule of old without the flag: any template name, submitted or not', async () => {
    const { store, co, w } = await withTemplate('rejected');
    expect(await createCampaign(store, w.ctx, co, campaign('welcome'))).toMatchObject({ outcome: 'created' });
    expect(await createCampaign(store, w.ctx, co, campaign('never'))).toMatchObject({ outcome: 'created' });
  });
});
