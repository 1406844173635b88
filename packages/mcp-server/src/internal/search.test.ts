import { describe, expect, it } from 'vitest';
import { loadDocsIndex } from './docs-index.ts';
import { DocsSearch } from './search.ts';

const search = new DocsSearch(loadDocsIndex());
const ids = (query: string, limit = 3) => search.search(query, limit).map((h) => h.entry.id);

describe('DocsSearch', () => {
  it.each([
    ['schedule a campaign', 'operation:createCampaign'],
    ['campaigns.create', 'operation:createCampaign'],
    ['list customers', 'operation:getCustomers'],
    ['update an order status', 'operation:updateOrder'],
    ['validation error issues', 'error:400'],
    ['rate limited', 'error:429'],
    ['recurring campaign every monday', 'operation:createCampaign'],
    ['webhook deliveries', 'operation:listWebhookDeliveries'],
  ])('answers "%s" with %s first', (query, id) => {
    expect(ids(query)[0]).toBe(id);
  });

  it('puts the operation of a named SDK method first', () => {
    expect(ids('customers.list')[0]).toBe('operation:getCustomers');
    expect(ids('reports.get')[0]).toBe('operation:reportingCampaign');
  });

  it('finds nothing for words the docs do not have, and honours the limit', () => {
    expect(search.search('qwertyuiop')).toEqual([]);
    expect(search.search('campaign', 2)).toHaveLength(2);
  });
});
