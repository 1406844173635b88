import { describe, expect, it } from 'vitest';
import { renderTemplate, renderValue } from './render.ts';

const customer = { firstName: 'Asha', lastName: 'Rao', name: 'Asha Rao', phoneNumber: '+919800000001', email: null };

describe('template rendering', () => {
  it('fills customer placeholders and keeps other text', () => {
    expect(renderValue('Hi {{customer.firstName}} ({{ customer.phoneNumber }})!', customer)).toBe('Hi Asha (+919800000001)!');
    expect(renderValue('{{customer.email}}|{{customer.unknown}}', customer)).toBe('|{{customer.unknown}}');
  });

  it('renders header, body and cards in declared order', () => {
    const t = renderTemplate(
      {
        template_name: 'offer',
        language: 'en',
        header_variable: ['city'],
        body_variable: ['first_name', 'discount'],
        variables: { discount: '10%', first_name: '{{customer.firstName}}', city: 'Pune' },
        cards: [{ card_image_url: 'https://example.com/a.jpg', card_body_variables: ['{{customer.name}}'] }],
      },
      customer,
    );
    expect(t).toEqual({
      name: 'offer',
      language: 'en',
      header: ['Pune'],
      body: ['Asha', '10%'],
      cards: [{ image_url: 'https://example.com/a.jpg', body: ['Asha Rao'] }],
      variables: { discount: '10%', first_name: 'Asha', city: 'Pune' },
    });
  });
});
