import * as z from 'zod';
import { freeFormObject } from '../free-form.ts';
import { keptShape } from '../kept.ts';
import { Amount, Id, IsoDate, optionalText, PhoneNumber, Timestamp, text } from '../primitives.ts';

export const CompanyCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, "_" or "-", e.g. VERPL000972024')
  .meta({ description: 'The company code.', example: 'VERPL000972024' });

export const CompanyOrderId = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .meta({ description: "The company's own order id.", example: 'ORD-001' });

export const Product = z
  .object({
    product_id: z
      .union([z.string().min(1).max(128), z.number()])
      .transform(String)
      .pipe(z.string())
      .meta({ description: 'Product id (a number is kept as text).', example: '101' }),
    quantity: z.int('must be a whole number').min(0, 'must be >= 0').max(1_000_000, 'must be <= 1000000').meta({ example: 2 }),
    price: Amount.meta({ example: 500 }),
  })
  .meta({ id: 'Product' });

/** A product of an order as stored: its id is always text. */
export const OrderProduct = z.object(keptShape(Product.shape)).meta({ id: 'OrderProduct', description: 'A product of an order as stored.' });

const Attributes = freeFormObject('Free-form object.', { giftWrap: true });

/**
 * Every order field but the keys, as addOrder takes it: the one declaration of an order's fields. The
 * request bodies, the mandatory list and the answer `Order` (each field as the store keeps it) come from it.
 */
const orderFieldShape = {
  totalAmount: Amount.meta({ description: 'Order total, >= 0.', example: 1500.75 }),
  firstName: text(200, 'Customer first name.', 'John'),
  phoneNumber: PhoneNumber,
  postalCode: text(32, 'Shipping postal code.', '56789'),
  streetAddress1: text(500, 'Shipping street address.', '123 Main Street'),
  lastName: optionalText(200, 'Customer last name.', 'Doe'),
  email: z.email('must be an email address').max(320).optional().meta({ example: 'john.doe@example.com' }),
  streetAddress2: optionalText(500, 'Shipping address, second line.', 'Apt 4B'),
  city: optionalText(200, 'Shipping city.', 'Springfield'),
  state: optionalText(200, 'Shipping state.', 'Illinois'),
  specialInstructions: optionalText(2000, 'Delivery instructions.', 'Leave package at the front door.'),
  products: z.array(Product).max(1000, 'must have at most 1000 products').optional(),
  billingStreetAddress1: optionalText(500, 'Billing street address.', '456 Elm Street'),
  billingStreetAddress2: optionalText(500, 'Billing address, second line.', 'Suite 202'),
  billingCity: optionalText(200, 'Billing city.', 'Springfield'),
  billingState: optionalText(200, 'Billing state.', 'Illinois'),
  billingPostalCode: optionalText(32, 'Billing postal code.', '56789'),
  companyOrderDate: IsoDate.optional(),
  companyOrderDueDate: IsoDate.optional().meta({ example: '2024-11-20' }),
  companyOrderDeliveryStatus: optionalText(100, 'Delivery status.', 'Pending'),
  companyOrderPaymentReference: optionalText(200, 'Payment reference.', 'PAY-123456'),
  companyOrderStatus: optionalText(100, 'Order status.', 'Processing'),
  companyOrderDescription: optionalText(2000, 'Order description.', 'Order description details'),
  company_order_other_attributes_1: Attributes.optional(),
  company_order_other_attributes_2: Attributes.optional().meta({ example: { priorityDelivery: false } }),
};

/** Every order field but the keys (company_id, company_order_id), in the order the API documents them. */
export const orderFieldNames = Object.keys(orderFieldShape) as (keyof typeof orderFieldShape)[];

/** The fields a new order cannot do without (addOrder's mandatory fields): those its schema does not let be absent. */
export const requiredOrderFieldNames = orderFieldNames.filter((name) => !orderFieldShape[name].safeParse(undefined).success);

/** The body of addOrder: insert, or update when (company_id, company_order_id) exists. */
export const AddOrderBody = z
  .object({
    company_id: CompanyCode,
    company_order_id: CompanyOrderId,
    ...orderFieldShape,
  })
  .meta({ id: 'NewOrder' });
export type AddOrderBody = z.input<typeof AddOrderBody>;

/** The body of updateOrder: `company_id` is required and cannot change; every other field is optional. */
export const UpdateOrderBody = z
  .object({
    company_id: CompanyCode,
    ...z.object(orderFieldShape).partial().shape,
  })
  .meta({ id: 'OrderChanges' });
export type UpdateOrderBody = z.input<typeof UpdateOrderBody>;

export const UpdateOrderParams = z.object({
  orderId: CompanyOrderId.meta({ description: "The company's own order id (company_order_id).", example: 'ORD-001' }),
});

/** An order as stored: the fields of `orderFieldShape` as the store keeps them (optional fields the company never sent are null). */
export const Order = z
  .object({
    id: Id.meta({ example: 'ord_01JD4Z8Q3T5V' }),
    company_id: z.string().meta({ example: 'VERPL000972024' }),
    company_order_id: z.string().meta({ example: 'ORD-001' }),
    ...keptShape(orderFieldShape, new Map([[Product, OrderProduct]])),
    version: z.int().min(1).meta({ description: 'Starts at 1 and grows with every update.', example: 1 }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Order', description: 'An order as stored.' });
export type Order = z.infer<typeof Order>;
