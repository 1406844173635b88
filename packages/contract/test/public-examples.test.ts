import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { ErrorResponse, errorStatusesOf, operations } from '../src/index.ts';
import { subsetMismatches } from './subset.ts';

interface Case {
  request?: { method?: string; path?: string; body?: unknown };
  response?: { status: number; body?: unknown };
  note?: string;
}
const examples = JSON.parse(readFileSync(new URL('./fixtures/public-examples.json', import.meta.url), 'utf8')) as Record<string, Case[] | string>;
const cases = (name: string) => examples[name] as Case[];

/** Maps the docs' operation names to ours (the docs call the template operation "template"). */
const opFor = {
  sync: 'sync',
  template: 'submitTemplate',
  createCampaign: 'createCampaign',
  getCampaignData: 'getCampaignData',
  getCampaign: 'getCampaign',
  getCustomers: 'getCustomers',
  reportingCampaign: 'reportingCampaign',
  addOrder: 'addOrder',
  updateOrder: 'updateOrder',
} as const;

function queryOf(path: string): Record<string, string> {
  return Object.fromEntries(new URL(path, 'http://x').searchParams);
}

describe('public examples', () => {
  it('covers every documented operation', () => {
    expect(
      Object.keys(examples)
        .filter((k) => k !== '_about')
        .sort(),
    ).toEqual(Object.keys(opFor).sort());
  });

  for (const [docName, opId] of Object.entries(opFor)) {
    const op = operations[opId];
    describe(docName, () => {
      cases(docName).forEach((c, i) => {
        if (c.request?.body !== undefined) {
          it(`parses request body #${i + 1} with ${opId}`, () => {
            const body = (op as { body?: z.ZodType }).body;
            expect(body, `${opId} has a body schema`).toBeDefined();
            const r = body?.safeParse(c.request?.body);
            expect(r?.error?.issues ?? []).toEqual([]);
          });
        }
        if (c.request?.path?.includes('?')) {
          it(`parses the query of request #${i + 1}`, () => {
            const query = (op as { query?: z.ZodType }).query;
            const r = query?.safeParse(queryOf(c.request?.path ?? ''));
            expect(r?.error?.issues ?? []).toEqual([]);
          });
        }
        const res = c.response;
        if (res?.body !== undefined) {
          it(`answers ${res.status} #${i + 1} in a shape whose fields include the docs' ones`, () => {
            if (res.status >= 400) {
              expect(subsetMismatches(ErrorResponse, res.body)).toEqual([]);
              return;
            }
            if (res.status === 204) {
              // A 204 cannot carry a body: an unknown campaign answers 404 with the error envelope.
              expect(errorStatusesOf(op)).toContain(404);
              return;
            }
            const schema = Object.values(op.responses)[0]?.schema as z.ZodType;
            const body = res.body as { data?: unknown; [k: string]: unknown };
            if (docName === 'reportingCampaign') {
              // The docs' report data is a placeholder ({ reportId, reportName, details }); ours is pinned in DESIGN.md.
              const { data: _placeholder, ...envelope } = body;
              expect(subsetMismatches(schema, envelope)).toEqual([]);
              return;
            }
            if (docName === 'getCampaign') {
              // The docs wrap the one campaign in an array and show status "active"; we answer the object
              // itself, with our lifecycle's status. Every other field the docs show is ours too.
              const [campaign] = body.data as Record<string, unknown>[];
              const { status: _status, ...rest } = campaign ?? {};
              expect(subsetMismatches(schema, { ...body, data: rest })).toEqual([]);
              return;
            }
            expect(subsetMismatches(schema, res.body)).toEqual([]);
          });
        }
      });
    });
  }
});

describe('subsetMismatches', () => {
  it('reports a field our schema lacks and a value it refuses', () => {
    const schema = operations.getCustomers.responses[200].schema;
    expect(subsetMismatches(schema, { success: true, data: [{ id: '1', nickname: 'x' }] })).toEqual(['data[0].nickname: not in our schema']);
    expect(subsetMismatches(schema, { success: 'yes' })).toHaveLength(1);
  });
});
