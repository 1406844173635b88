import { describe, expect, it } from 'vitest';
import { countTerms, stem, tokenize } from './tokenize.ts';

describe('tokenize', () => {
  it('splits identifiers and drops stop words', () => {
    expect(tokenize('Schedule a campaign')).toEqual(['schedul', 'campaign']);
    expect(tokenize('createCampaign schedule_type campaigns.create')).toEqual(['creat', 'campaign', 'schedul', 'type', 'campaign', 'creat']);
  });

  it('gives a word and its inflections one stem', () => {
    for (const [a, b] of [
      ['campaigns', 'campaign'],
      ['scheduled', 'schedule'],
      ['scheduling', 'schedule'],
      ['deliveries', 'delivery'],
      ['matches', 'match'],
    ]) {
      expect(stem(a as string)).toBe(stem(b as string));
    }
  });

  it('counts weighted terms', () => {
    expect(countTerms('campaign campaigns report', 2)).toEqual({ campaign: 4, report: 2 });
  });
});
