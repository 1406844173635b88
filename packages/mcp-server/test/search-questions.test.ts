/**
 * Questions an assistant asks while doing a task, written from the tasks (not from the index), each with
 * the entry that answers it. At least 90% must have their answer in the top 3 hits; the test prints the
 * misses so a change to the index or the ranking shows what it cost.
 */
import { describe, expect, it } from 'vitest';
import { loadDocsIndex } from '../src/internal/docs-index.ts';
import { DocsSearch } from '../src/internal/search.ts';

const search = new DocsSearch(loadDocsIndex());

/** [question, the ids any of which answers it] */
const QUESTIONS: [string, string[]][] = [
  ['How do I schedule a WhatsApp campaign for next Friday at 10am?', ['operation:createCampaign']],
  ['verify a webhook signature', ['guide:webhooks']],
  ['What does a 409 mean on addOrder?', ['error:409:addOrder']],
  ['what is the rate limit', ['error:429']],
  ['failure rate per campaign', ['operation:reportingCampaign']],
  ['get all customers, every page', ['operation:getCustomers', 'guide:pagination']],
  ['pause a running campaign', ['operation:pauseCampaign']],
  ['stop a scheduled campaign from sending for good', ['operation:cancelCampaign']],
  ['mark an order as shipped', ['operation:updateOrder']],
  ['record a new order for a customer', ['operation:addOrder']],
  ['get notified when an order is created', ['operation:createWebhook']],
  ['rotate the webhook signing secret', ['operation:rotateWebhookSecret']],
  ['why did my webhook deliveries fail', ['operation:listWebhookDeliveries']],
  ['resend a webhook delivery that failed', ['operation:redeliverWebhookDelivery']],
  ['submit a new WhatsApp message template for approval', ['operation:submitTemplate']],
  ['is my template approved or rejected?', ['operation:listTemplates']],
  ['how many messages were delivered and read', ['operation:reportingCampaign']],
  ['loop over all campaigns page by page', ['guide:pagination', 'operation:getCampaignData']],
  ['make a retry safe so the order is not created twice', ['guide:retries-timeouts-idempotency-cancellation', 'error:409:addOrder']],
  ["what is my company's company_id", ['operation:getCompany']],
  ['campaign not found error', ['error:404', 'operation:getCampaign']],
  ['send a test event to my webhook endpoint', ['operation:sendTestEvent']],
  ['try a campaign on the mock and move time forward', ['guide:execute']],
  ['a campaign that repeats every Monday', ['operation:createCampaign']],
  ['which field of my request is invalid', ['error:400']],
  ['remove a webhook endpoint', ['operation:deleteWebhook']],
  ['409 when creating a campaign', ['error:409:createCampaign']],
  ['resume a paused campaign', ['operation:resumeCampaign']],
];

describe('search_docs on questions from tasks', () => {
  it(`has the answer in the top 3 for at least 90% of ${QUESTIONS.length} questions`, () => {
    const misses = QUESTIONS.filter(([question, answers]) => {
      const top = search.search(question, 3).map((h) => h.entry.id);
      return !answers.some((a) => top.includes(a));
    }).map(
      ([question, answers]) =>
        `${question} -> wanted ${answers.join(' or ')}, got ${search
          .search(question, 3)
          .map((h) => h.entry.id)
          .join(', ')}`,
    );
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(20);
    expect(misses.length / QUESTIONS.length, misses.join('\n')).toBeLessThanOrEqual(0.1);
  });

  it('answers every hit in short, with a way to the whole entry', () => {
    for (const [question] of QUESTIONS) {
      for (const { entry } of search.search(question, 3)) {
        expect(entry.short.length, entry.id).toBeLessThanOrEqual(2_000);
        expect(entry.short).toContain(`search_docs with id "${entry.id}"`);
      }
    }
  });
});
