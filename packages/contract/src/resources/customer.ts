import * as z from 'zod';
import { Id, optionalText, PhoneNumber, Timestamp, text } from '../primitives.ts';

/** Where a customer came from: an order named them, or the admin API imported them. */
export const CustomerSource = z.enum(['orders', 'import']).meta({ id: 'CustomerSource', description: 'Where the customer came from.', example: 'orders' });
export type CustomerSource = z.infer<typeof CustomerSource>;

/** A customer: a person the company's orders name (by phone number), or one imported by the admin API. */
export const Customer = z
  .object({
    id: Id.meta({ example: 'cus_01JD4Z8Q3T5V' }),
    name: z.string().meta({ description: 'First and last name.', example: 'Customer A' }),
    firstName: z.string().meta({ example: 'Customer' }),
    lastName: z.string().nullable().meta({ example: 'A' }),
    email: z.string().nullable().meta({ example: 'customerA@example.com' }),
    phoneNumber: z.string().meta({ example: '+1234567890' }),
    source: CustomerSource,
    orders_count: z.int().min(0).meta({ example: 2 }),
    orders_amount: z.number().min(0).meta({ description: 'Sum of the totals of their orders.', example: 2500.75 }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Customer' });
export type Customer = z.infer<typeof Customer>;

/** A customer to import through the admin API. */
export const CustomerImport = z
  .object({
    phoneNumber: PhoneNumber,
    firstName: text(200, 'First name.', 'Asha'),
    lastName: optionalText(200, 'Last name.', 'Rao'),
    email: z.email('must be an email address').max(320).optional().meta({ example: 'asha@example.com' }),
  })
  .meta({ id: 'CustomerImport' });

export const ImportCustomersBody = z
  .object({ customers: z.array(CustomerImport).min(1, 'must list at least one customer').max(1000, 'must list at most 1000 customers') })
  .meta({ id: 'CustomerImportBatch' });
export type ImportCustomersBody = z.input<typeof ImportCustomersBody>;

export const ImportCustomersResult = z
  .object({
    created: z.int().min(0).meta({ example: 1 }),
    updated: z.int().min(0).meta({ example: 0 }),
  })
  .meta({ id: 'ImportCustomersResult' });
