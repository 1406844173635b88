import { describe, expect, it } from 'vitest';
import { jsonSchemaOf } from './json-schema.ts';
import { CreateCampaignBody } from './resources/campaign.ts';

describe('jsonSchemaOf', () => {
  it('leaves out the meta keys only zod-openapi reads, and keeps the named schemas', () => {
    const schema = jsonSchemaOf(CreateCampaignBody);
    const text = JSON.stringify(schema);
    expect(text).not.toContain('outputId');
    expect(Object.keys(schema.$defs as object)).toEqual(expect.arrayContaining(['TemplatePayload', 'CarouselCard']));
  });
});
