/** @engagekit/sdk/admin: the operator's client, with the admin token (companies, tokens, customer import, webhook endpoints). */
export { type AdminClientOptions, type CompanyPage, createAdminClient, type EngageAdminClient, type TokenPage } from './admin-client.ts';
