/**
 * @engagekit/sdk/validate: checks every answer against the contract's zod schemas. A separate entry, so
 * the main one carries no zod; it needs `zod` (>= 4.6) installed.
 *
 * @example
 * import { createClient } from '@engagekit/sdk';
 * import { validateResponse } from '@engagekit/sdk/validate';
 * const client = createClient({ baseUrl, token, uuid, validateResponse });
 */
import { type OperationSpec, operations } from '@engagekit/contract';
import { EngageError, type Issue } from './errors.ts';
import type { ResponseValidator, ValidatedAnswer } from './internal/request.ts';

/** An answer broke the contract: the server and this SDK version disagree. */
export class ResponseValidationError extends EngageError {
  static override readonly errorName: string = 'ResponseValidationError';
  /** The operation whose answer it was. */
  readonly operationId: string;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Every field that broke the contract. */
  readonly issues: Issue[];
  /** The answer's body. */
  readonly body: unknown;

  constructor(answer: ValidatedAnswer, issues: Issue[]) {
    const summary = issues
      .slice(0, 5)
      .map((i) => `${i.path || '(body)'}: ${i.message}`)
      .join('; ');
    super(
      `The ${answer.status} answer of ${answer.operationId} does not match the contract (${summary}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}). Is the server a different version from this SDK?`,
    );
    this.operationId = answer.operationId;
    this.status = answer.status;
    this.issues = issues;
    this.body = answer.body;
  }
}

/**
 * Checks one successful answer against the contract's schema for its operation and status; throws
 * `ResponseValidationError` when it does not match. Pass it as `createClient({ validateResponse })`.
 */
export const validateResponse: ResponseValidator = (answer) => {
  const op = (operations as Record<string, OperationSpec>)[answer.operationId];
  const schema = op?.responses[answer.status as 200]?.schema;
  if (!schema) {
    throw new ResponseValidationError(answer, [{ path: '', message: `the contract has no ${answer.status} answer for ${answer.operationId}` }]);
  }
  const result = schema.safeParse(answer.body);
  if (!result.success) {
    throw new ResponseValidationError(
      answer,
      result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    );
  }
};
