import { iso, type TemplatePort, type TemplateRecord } from '@engagekit/runtime/store';
import { eq, sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { pageOldestFirst } from './queries.ts';
import { recordColumns, templates } from './schema.ts';

const templateColumns = recordColumns(templates);

/** The SQL store's templates on `conn` (the pool, or one transaction). */
export function createSqlTemplates({ db }: SqlConnection): TemplatePort {
  return {
    async upsertTemplate(template): Promise<TemplateRecord> {
      const [row] = await db
        .insert(templates)
        .values({ ...template, created_at: iso(template.created_at), updated_at: iso(template.updated_at) })
        .onConflictDoUpdate({
          target: [templates.company_uuid, templates.template_name, templates.phone_number],
          set: { wam_id: sql`excluded.wam_id`, status: sql`excluded.status`, reason: sql`excluded.reason`, updated_at: sql`excluded.updated_at` },
        })
        .returning(templateColumns);
      if (!row) throw new Error('The template was not written.');
      return row;
    },
    listTemplates: (companyUuid, page) => pageOldestFirst(db, templates, templateColumns, eq(templates.company_uuid, companyUuid), page),
    async setTemplateStatus(wamId, status, reason, now) {
      // A status of null keeps each row's own (a flag sets only the reason).
      const rows = await db
        .update(templates)
        .set({ ...(status === null ? {} : { status }), reason, updated_at: iso(now) })
        .where(eq(templates.wam_id, wamId))
        .returning({ id: templates.id });
      return rows.length;
    },
  };
}
