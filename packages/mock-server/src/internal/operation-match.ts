import { type OperationId, type OperationSpec, operations } from '@engagekit/contract';

interface Matcher {
  operationId: OperationId;
  re: RegExp;
  methods: Set<string>;
}

/** One matcher per operation of the contract: its path (and the `/{uuid}` prefix form of agency calls) and its methods. */
const matchers: Matcher[] = (Object.values(operations) as OperationSpec[]).map((op) => ({
  operationId: op.operationId as OperationId,
  re: new RegExp(`^${op.surface === 'agency' ? '(?:/[0-9a-fA-F-]{36})?' : ''}${op.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  methods: new Set([op.method, ...(op.alsoAccepts ?? [])].map((m) => m.toUpperCase())),
}));

/** The contract's operationId for a method and path, or undefined when the path is none of the contract's. */
export function matchOperation(method: string, pathname: string): OperationId | undefined {
  const m = method.toUpperCase();
  for (const matcher of matchers) if (matcher.methods.has(m) && matcher.re.test(pathname)) return matcher.operationId;
  return undefined;
}

/** True when `id` is an operationId of the contract. */
export function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(operations, id);
}
