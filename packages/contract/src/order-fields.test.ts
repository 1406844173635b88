import { describe, expect, it } from 'vitest';
import { AddOrderBody, Order, orderFieldNames, requiredOrderFieldNames } from './index.ts';

describe('order fields', () => {
  it('names every field of an order but its keys and what the store adds', () => {
    const stored = Object.keys(Order.shape).filter((k) => !['id', 'company_id', 'company_order_id', 'version', 'created_at', 'updated_at'].includes(k));
    expect([...orderFieldNames].sort()).toEqual(stored.sort());
  });

  it('names as required the five fields of the public docs and the two the API adds (postal code, street address)', () => {
    expect(requiredOrderFieldNames).toEqual(['totalAmount', 'firstName', 'phoneNumber', 'postalCode', 'streetAddress1']);
    const issues = AddOrderBody.safeParse({ company_id: 'C', company_order_id: 'O' }).error?.issues.map((i) => i.path.join('.'));
    expect(issues?.sort()).toEqual([...requiredOrderFieldNames].sort());
  });
});
