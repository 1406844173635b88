import { type CompanyPort, type CompanyRecord, iso, StoreConflictError } from '@engagekit/runtime/store';
import { eq, sql } from 'drizzle-orm';
import { builtOnce } from './built-once.ts';
import type { SqlConnection } from './connection.ts';
import { mapUniqueViolation } from './errors.ts';
import { pageOldestFirst } from './queries.ts';
import { companies } from './schema.ts';

const companyColumns = {
  uuid: companies.uuid,
  company_id: companies.company_id,
  name: companies.name,
  timezone: companies.timezone,
  created_at: companies.created_at,
};

/** A company by uuid: the hottest read, as a prepared statement (planned once per connection, built once here). */
const getCompanyStatement = builtOnce<CompanyRecord>(
  'engagekit_get_company',
  (db) =>
    db
      .select(companyColumns)
      .from(companies)
      .where(eq(companies.uuid, sql.placeholder('uuid'))),
  companyColumns,
);

/** The SQL store's companies on `conn` (the pool, or one transaction). */
export function createSqlCompanies(conn: SqlConnection): CompanyPort {
  const { db } = conn;
  return {
    async createCompany(company) {
      try {
        const [row] = await db
          .insert(companies)
          .values({ ...company, created_at: iso(company.created_at) })
          .returning(companyColumns);
        if (!row) throw new Error('The company was not inserted.');
        return row;
      } catch (error) {
        throw mapUniqueViolation(
          error,
          'companies_company_id_unique',
          () => new StoreConflictError('company_id', `A company with company_id "${company.company_id}" exists already.`),
        );
      }
    },
    async getCompany(uuid) {
      const [row] = await getCompanyStatement(conn, { uuid });
      return row ?? null;
    },
    listCompanies: (page) => pageOldestFirst(db, companies, companyColumns, undefined, page),
  };
}
