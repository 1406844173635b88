/**
 * Which operation a request's method and path name. Servers route with their own router (the
 * reference server registers every operation on Hono); this answers the questions around routing:
 * which operation a request is for (a mock's faults, a port that serves one surface) and which methods
 * a path allows (a 405's `Allow`).
 */
import type { OperationSpec } from './operation.ts';
import { type OperationId, operations } from './operations.ts';

/** An operation a request names, and the values of its path parameters. */
export interface OperationMatch {
  operation: OperationSpec & { operationId: OperationId };
  params: Record<string, string>;
}

interface Matcher {
  operation: OperationMatch['operation'];
  pattern: RegExp;
  names: string[];
  methods: string[];
}

/** `/{uuid}` before an agency path: the public docs' form of the `uuid` query parameter. */
const AGENCY_PREFIX = /^\/([0-9a-fA-F-]{36})(?=\/agency\/)/;

/**
 * An agency path's `/{uuid}` prefix (the public docs' form of the `uuid` query parameter) and the
 * path without it; other paths come back as they are.
 *
 * @example splitAgencyPrefix('/53d1bcd3-aaf0-45e1-9298-5395b6a27b61/agency/sync') // { uuid: '53d1bcd3-...', path: '/agency/sync' }
 */
export function splitAgencyPrefix(path: string): { uuid: string | undefined; path: string } {
  const m = AGENCY_PREFIX.exec(path);
  return m ? { uuid: m[1], path: path.slice(m[0].length) } : { uuid: undefined, path };
}

const matchers: Matcher[] = (Object.values(operations) as Matcher['operation'][]).map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path.replace(/\{[A-Za-z0-9_]+\}/g, '([^/]+)')}$`),
  names: [...operation.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] as string),
  methods: [operation.method, ...(operation.alsoAccepts ?? [])].map((m) => m.toUpperCase()),
}));

/** A path segment percent-decoded, or as it is when it does not decode. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The matchers whose path is `path` (an agency path also with its `/{uuid}` prefix), with their parameters. */
function* onPath(path: string): Generator<{ matcher: Matcher; params: Record<string, string> }> {
  const { uuid: prefixed, path: bare } = splitAgencyPrefix(path);
  for (const matcher of matchers) {
    if (prefixed && matcher.operation.surface !== 'agency') continue;
    const m = matcher.pattern.exec(bare);
    if (!m) continue;
    yield { matcher, params: Object.fromEntries(matcher.names.map((name, i) => [name, decoded(m[i + 1] as string)])) };
  }
}

/**
 * The operation `method` and `path` name, or undefined when they name none of the contract's (an
 * unknown path, or a method the path does not allow). `path` is a URL's pathname, without the query.
 *
 * @example matchOperation('GET', '/agency/getCampaign/cmp_1')?.operation.operationId // 'getCampaign'
 */
export function matchOperation(method: string, path: string): OperationMatch | undefined {
  const wanted = method.toUpperCase();
  for (const { matcher, params } of onPath(path)) {
    if (matcher.methods.includes(wanted)) return { operation: matcher.operation, params };
  }
  return undefined;
}

/** Every operation at `path`, whatever its method; empty when the path is none of the contract's. */
export function operationsAt(path: string): OperationMatch[] {
  return [...onPath(path)].map(({ matcher, params }) => ({ operation: matcher.operation, params }));
}

/** The methods the contract allows on `path`, upper case; empty when the path is none of the contract's. */
export function allowedMethods(path: string): string[] {
  const methods = new Set<string>();
  for (const { matcher } of onPath(path)) for (const method of matcher.methods) methods.add(method);
  return [...methods];
}

/** True when `id` is an operationId of the contract. */
export function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(operations, id);
}
