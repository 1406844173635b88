/** An addOrder body the API accepts (Asha Rao's order), with `extra` fields laid over it. */
export function sampleOrder<E extends object = Record<never, never>>(company_id: string, company_order_id: string, extra?: E) {
  return {
    company_id,
    company_order_id,
    totalAmount: 100.5,
    firstName: 'Asha',
    lastName: 'Rao',
    phoneNumber: '+919800000001',
    postalCode: '560001',
    streetAddress1: '1 MG Road',
    ...(extra as E),
  };
}
