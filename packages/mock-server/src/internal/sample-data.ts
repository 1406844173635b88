import {
  AddOrderBody,
  type Campaign,
  CreateCampaignBody,
  ImportCustomersBody,
  jsonSchemaOf,
  type Order,
  SubmitTemplateBody,
  type Template,
} from '@engagekit/contract';
import * as z from 'zod';

/** Sample data to load into the mock's company, through the API itself (so it is validated exactly as calls are). */
export interface MockData {
  /** The JSON Schema of the file (ignored). */
  $schema?: string;
  /** Loaded first: templates, as `POST /agency/template` takes them. */
  templates?: SubmitTemplateBody[];
  /** Then imported customers, as `POST /api/v2/companies/{uuid}/customers` takes them. */
  customers?: ImportCustomersBody['customers'];
  /** Then orders, as `POST /api/order/addOrder` takes them; `company_id` defaults to the mock company's. */
  orders?: (Omit<AddOrderBody, 'company_id'> & { company_id?: string })[];
  /** Then campaigns, as `POST /agency/createCampaign` takes them. */
  campaigns?: CreateCampaignBody[];
}

/**
 * The shape of sample data (a fixture file for `engagekit-mock --data`, or the `data` option): the
 * request bodies of the contract itself. Published as JSON Schema in `dist/fixtures.schema.json`
 * (`@engagekit/mock-server/fixtures.schema.json`); a file may name it in `$schema`.
 */
export const MockDataSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'The JSON Schema of this file, for editors.' }),
    templates: z.array(SubmitTemplateBody).optional().meta({ description: 'Loaded first, as `POST /agency/template` takes them.' }),
    customers: ImportCustomersBody.shape.customers.optional().meta({ description: 'Then imported, as `POST /api/v2/companies/{uuid}/customers` takes them.' }),
    orders: z
      .array(AddOrderBody.extend({ company_id: AddOrderBody.shape.company_id.optional() }))
      .optional()
      .meta({ description: "Then added, as `POST /api/order/addOrder` takes them; `company_id` defaults to the mock company's." }),
    campaigns: z.array(CreateCampaignBody).optional().meta({ description: 'Then created, as `POST /agency/createCampaign` takes them.' }),
  })
  .meta({ title: 'engagekit mock sample data', description: 'Sample data the engagekit mock loads through its own API, at start and after every reset.' });

/** The JSON Schema of sample data, as `dist/fixtures.schema.json` holds it. */
export function mockDataJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(MockDataSchema);
}

/**
 * `value` checked against the sample data's shape; a MockDataError naming `source` (the file, or the
 * option), the path of each problem in it and the problem, when it does not fit.
 */
export function parseMockData(value: unknown, source: string): MockData {
  const r = MockDataSchema.safeParse(value);
  if (r.success) return value as MockData;
  const problems = r.error.issues.slice(0, 10).map((i) => `  ${pathOf(i.path) || '(the top level)'}: ${i.message}`);
  const more = r.error.issues.length > 10 ? `\n  ...and ${r.error.issues.length - 10} more` : '';
  throw new MockDataError(`${source} is not valid sample data:\n${problems.join('\n')}${more}`);
}

/** `orders[2].phoneNumber` from zod's path. */
function pathOf(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

/** What loading sample data created, as the API answered. */
export interface LoadedData {
  templates: Template[];
  customers: { created: number; updated: number };
  orders: Order[];
  campaigns: Campaign[];
}

/** Thrown when sample data is refused by the API; the message carries the API's own message and issues. */
export class MockDataError extends Error {
  override readonly name = 'MockDataError';
}

/**
 * Loads `data` through `send` (the mock's own handler) as the company with `token`, and the admin
 * token for customers. Stops at the first refusal.
 */
export async function loadData(
  data: MockData,
  ctx: { send: (request: Request) => Promise<Response>; baseUrl: string; company: { uuid: string; company_id: string; token: string }; adminToken: string },
): Promise<LoadedData> {
  const call = async <T>(what: string, path: string, body: unknown, token = ctx.company.token): Promise<T> => {
    const res = await ctx.send(
      new Request(`${ctx.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    const json = (await res.json()) as { data?: T; message?: string; issues?: { path: string; message: string }[] };
    if (!res.ok) {
      const issues = json.issues?.map((i) => `${i.path} ${i.message}`).join('; ');
      throw new MockDataError(`Sample data refused: ${what} answered ${res.status}: ${json.message ?? ''}${issues ? ` (${issues})` : ''}`);
    }
    return json.data as T;
  };
  const q = `?uuid=${ctx.company.uuid}`;
  const loaded: LoadedData = { templates: [], customers: { created: 0, updated: 0 }, orders: [], campaigns: [] };
  for (const [i, t] of (data.templates ?? []).entries()) loaded.templates.push(await call<Template>(`templates[${i}]`, `/agency/template${q}`, t));
  if (data.customers?.length) {
    loaded.customers = await call(`customers`, `/api/v2/companies/${ctx.company.uuid}/customers`, { customers: data.customers }, ctx.adminToken);
  }
  for (const [i, o] of (data.orders ?? []).entries()) {
    loaded.orders.push(await call<Order>(`orders[${i}]`, '/api/order/addOrder', { company_id: ctx.company.company_id, ...o }));
  }
  for (const [i, c] of (data.campaigns ?? []).entries()) loaded.campaigns.push(await call<Campaign>(`campaigns[${i}]`, `/agency/createCampaign${q}`, c));
  return loaded;
}
