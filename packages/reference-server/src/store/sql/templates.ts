import { iso, type TemplatePort, type TemplateRecord } from '@engagekit/runtime/store';
import { eq, sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { pageOldestFirst } from './queries.ts';
import { recordColumns, templateReviews, templates } from './schema.ts';

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
      // The review first: its upsert locks the id's row, which a submission of the id locks too (templateReview).
      await db
        .insert(templateReviews)
        .values({ wam_id: wamId, status, reason, updated_at: iso(now) })
        .onConflictDoUpdate({
          target: templateReviews.wam_id,
          set: { status: sql`coalesce(excluded.status, ${templateReviews.status})`, reason: sql`excluded.reason`, updated_at: sql`excluded.updated_at` },
        });
      // A status of null keeps each row's own (a flag sets only the reason).
      const rows = await db
        .update(templates)
        .set({ ...(status === null ? {} : { status }), reason, updated_at: iso(now) })
        .where(eq(templates.wam_id, wamId))
        .returning({ id: templates.id });
      return rows.length;
    },
    async templateReview(wamId, now) {
      // The update changes nothing but locks the row (made if need be), and returns its latest committed values.
      const [row] = await db
        .insert(templateReviews)
        .values({ wam_id: wamId, status: null, reason: null, updated_at: iso(now) })
        .onConflictDoUpdate({ target: templateReviews.wam_id, set: { wam_id: sql`excluded.wam_id` } })
        .returning({ status: templateReviews.status, reason: templateReviews.reason });
      if (!row) throw new Error('The template review was not read.');
      return row;
    },
  };
}
