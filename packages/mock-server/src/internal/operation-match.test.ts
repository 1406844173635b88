import { type OperationSpec, operations } from '@engagekit/contract';
import { describe, expect, it } from 'vitest';
import { isOperationId, matchOperation } from './operation-match.ts';

describe('matchOperation', () => {
  it('finds every operation of the contract by its method and path, and its other accepted methods', () => {
    for (const op of Object.values(operations) as OperationSpec[]) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x1');
      for (const method of [op.method, ...(op.alsoAccepts ?? [])]) expect(matchOperation(method, path), `${method} ${path}`).toBe(op.operationId);
    }
  });

  it('finds agency calls in the path-prefix form, and only agency calls', () => {
    const uuid = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';
    expect(matchOperation('GET', `/${uuid}/agency/getCampaignData`)).toBe('getCampaignData');
    expect(matchOperation('GET', `/${uuid}/agency/getCampaign/cmp_1`)).toBe('getCampaign');
    expect(matchOperation('POST', `/${uuid}/api/order/addOrder`)).toBeUndefined();
  });

  it('finds nothing for a wrong method or an unknown path', () => {
    expect(matchOperation('DELETE', '/agency/createCampaign')).toBeUndefined();
    expect(matchOperation('GET', '/agency/getCampaignDataX')).toBeUndefined();
    expect(matchOperation('GET', '/api/v2/companies/u/webhooks/w/deliveries/d')).toBeUndefined();
  });

  it('knows the contract’s operationIds', () => {
    expect(isOperationId('addOrder')).toBe(true);
    expect(isOperationId('toString')).toBe(false);
  });
});
