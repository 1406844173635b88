/**
 * The public docs' example company. The reference server seeds it at start (`DEMO_COMPANY=1`) and the
 * mock holds it ready, so the docs' calls work as written against either.
 */
export const DEMO_COMPANY = { uuid: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61', company_id: 'VERPL000972024', name: 'Demo Company', timezone: 'UTC' } as const;
