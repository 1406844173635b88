import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AddOrderBody, Order, OrderProduct, Product } from './index.ts';
import { keptField, keptShape } from './kept.ts';

describe('keptField', () => {
  it('shows a field without the request’s limits, with its example; an optional one nullable, an optional list as a list', () => {
    const required = keptField(z.string().trim().min(1).max(3).meta({ description: 'Taken.', example: 'abc' }));
    expect(required.parse('a longer text')).toBe('a longer text');
    expect(required.safeParse(null).success).toBe(false);
    expect(required.meta()).toEqual({ example: 'abc' });

    const optional = keptField(z.email().optional().meta({ example: 'a@example.com' }));
    expect(optional.parse(null)).toBeNull();
    expect(optional.parse('not an email')).toBe('not an email');
    expect(optional.meta()).toEqual({ example: 'a@example.com' });

    const list = keptField(z.array(z.int().min(0)).max(1).optional());
    expect(list.parse([-1, 2])).toEqual([-1, 2]);
    expect(list.safeParse(null).success).toBe(false);
    expect(list.safeParse([1.5]).success).toBe(false);
  });

  it('keeps a transformed field as its output, and a shared schema as the component given for it', () => {
    const kept = keptShape(
      { id: z.union([z.string(), z.number()]).transform(String).pipe(z.string()), items: z.array(Product).optional() },
      new Map([[Product, OrderProduct]]),
    );
    expect(kept.id.safeParse(1).success).toBe(false);
    expect((kept.items as z.ZodArray<typeof OrderProduct>).element).toBe(OrderProduct);
  });

  it('throws for a field of a type it cannot keep, rather than leaving the field out', () => {
    expect(() => keptField(z.boolean())).toThrow(/No kept form for a request field of type "boolean"/);
  });
});

describe('Order', () => {
  it('is addOrder’s fields as the store keeps them: a full body parsed and stored is an Order, and one without optional fields stores nulls', () => {
    const body = AddOrderBody.parse({
      company_id: 'C',
      company_order_id: 'O',
      totalAmount: 1,
      firstName: 'Ann',
      phoneNumber: '+15550000001',
      postalCode: '1',
      streetAddress1: 'Main St',
      email: 'ann@example.com',
      products: [{ product_id: 7, quantity: 1, price: 2 }],
      company_order_other_attributes_1: { a: 1 },
    });
    const stored = { id: 'ord_1', version: 1, created_at: 't', updated_at: 't', ...body };
    const keys = Object.keys(Order.shape).filter((key) => !(key in stored));
    const nulls = Object.fromEntries(keys.map((key) => [key, null]));
    expect(Order.strict().parse({ ...stored, ...nulls })).toEqual({ ...stored, ...nulls });
    expect(Order.safeParse({ ...stored, ...nulls, firstName: null }).success).toBe(false);
  });
});
