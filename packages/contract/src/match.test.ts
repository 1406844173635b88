import { describe, expect, it } from 'vitest';
import { allowedMethods, isOperationId, matchOperation, operationsAt, splitAgencyPrefix } from './match.ts';
import type { OperationSpec } from './operation.ts';
import { operations } from './operations.ts';

const uuid = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';

describe('matchOperation', () => {
  it('names every operation of the contract by each of its methods', () => {
    for (const op of Object.values(operations) as OperationSpec[]) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x1');
      for (const method of [op.method, ...(op.alsoAccepts ?? [])]) {
        expect(matchOperation(method, path)?.operation.operationId, `${method} ${path}`).toBe(op.operationId);
      }
    }
  });

  it('gives the path parameters, decoded', () => {
    expect(matchOperation('get', `/api/v2/companies/${uuid}/webhooks/wh%201/deliveries`)).toMatchObject({
      operation: { operationId: 'listWebhookDeliveries' },
      params: { uuid, id: 'wh 1' },
    });
  });

  it('takes the /{uuid} prefix form of agency paths, and of agency paths only', () => {
    expect(matchOperation('GET', `/${uuid}/agency/getCampaignData`)?.operation.operationId).toBe('getCampaignData');
    expect(matchOperation('GET', `/${uuid}/agency/getCampaign/cmp_1`)?.params).toEqual({ id: 'cmp_1' });
    expect(matchOperation('POST', `/${uuid}/api/order/addOrder`)).toBeUndefined();
  });

  it('names nothing for another method, a longer path or a trailing slash', () => {
    expect(matchOperation('DELETE', '/agency/createCampaign')).toBeUndefined();
    expect(matchOperation('GET', '/agency/getCampaignDataX')).toBeUndefined();
    expect(matchOperation('GET', '/agency/getCampaignData/')).toBeUndefined();
    expect(matchOperation('GET', '/api/v2/companies/u/webhooks/w/deliveries/d')).toBeUndefined();
  });
});

describe('allowedMethods', () => {
  it('lists the methods a path allows, the compatibility ones included', () => {
    expect(allowedMethods('/api/order/updateOrder/ORD-1').sort()).toEqual(['PATCH', 'POST', 'PUT']);
    expect(allowedMethods('/api/v2/companies/u/webhooks/w').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    expect(allowedMethods('/nowhere')).toEqual([]);
  });
});

describe('operationsAt', () => {
  it('lists every operation at a path, whatever its method', () => {
    expect(
      operationsAt('/api/v2/companies/u/webhooks/w')
        .map((m) => m.operation.operationId)
        .sort(),
    ).toEqual(['deleteWebhook', 'getWebhook', 'updateWebhook']);
    expect(operationsAt(`/${uuid}/agency/sync`).map((m) => m.operation.surface)).toEqual(['agency']);
  });
});

describe('splitAgencyPrefix', () => {
  it('takes the uuid off an agency path, and leaves other paths as they are', () => {
    expect(splitAgencyPrefix(`/${uuid}/agency/sync`)).toEqual({ uuid, path: '/agency/sync' });
    expect(splitAgencyPrefix(`/${uuid}/api/order/addOrder`)).toEqual({ uuid: undefined, path: `/${uuid}/api/order/addOrder` });
    expect(splitAgencyPrefix('/agency/sync')).toEqual({ uuid: undefined, path: '/agency/sync' });
  });
});

describe('isOperationId', () => {
  it('knows the contract’s operationIds and nothing inherited', () => {
    expect(isOperationId('addOrder')).toBe(true);
    expect(isOperationId('toString')).toBe(false);
  });
});
