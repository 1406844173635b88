import type { TemplatePayload } from '@engagekit/contract';
import type { CustomerRecord } from '../store/types.ts';

/** The template as sent to one customer: its name, language and rendered header, body and card values. */
export interface RenderedTemplate {
  name: string;
  language: string;
  header: string[];
  body: string[];
  cards: { image_url: string; body: string[] }[];
  /** Every variable by name, as rendered: kept with the message. */
  variables: Record<string, string>;
}

const PLACEHOLDER = /\{\{\s*customer\.(firstName|lastName|name|phoneNumber|email)\s*\}\}/g;

/** Replaces `{{customer.firstName}}` and friends in one value with the customer's fields (missing ones render empty). */
export function renderValue(value: string, customer: Pick<CustomerRecord, 'firstName' | 'lastName' | 'name' | 'phoneNumber' | 'email'>): string {
  return value.replace(PLACEHOLDER, (_, field: keyof typeof customer) => customer[field] ?? '');
}

/** Renders a campaign's template payload for one customer, in the order the template declares its variables. */
export function renderTemplate(
  payload: TemplatePayload,
  customer: Pick<CustomerRecord, 'firstName' | 'lastName' | 'name' | 'phoneNumber' | 'email'>,
): RenderedTemplate {
  const variables = Object.fromEntries(Object.entries(payload.variables).map(([k, v]) => [k, renderValue(v, customer)]));
  return {
    name: payload.template_name,
    language: payload.language,
    header: payload.header_variable.map((v) => variables[v] ?? ''),
    body: payload.body_variable.map((v) => variables[v] ?? ''),
    cards: (payload.cards ?? []).map((c) => ({ image_url: c.card_image_url, body: c.card_body_variables.map((v) => renderValue(v, customer)) })),
    variables,
  };
}
