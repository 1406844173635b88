import type { OperationId, Operations } from '@engagekit/contract';
import type * as z from 'zod';
import type { RequestContext } from '../context.ts';
import type { CompanyRecord } from '../store/types.ts';

/** Company calls, and admin calls with a `{uuid}` path parameter, act for one company. */
type NamesCompany<Op> = Op extends { auth: { kind: 'company' } }
  ? true
  : Op extends { params: z.ZodObject<infer S> }
    ? 'uuid' extends keyof S
      ? true
      : false
    : false;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type Responses<K extends OperationId> = Operations[K]['responses'];
type SuccessStatus<K extends OperationId> = keyof Responses<K> & number;
type ResponseBody<K extends OperationId, S extends SuccessStatus<K>> = Responses<K>[S] extends { schema: infer T extends z.ZodType } ? z.input<T> : never;

/** What a handler receives: validated input, the company it acts for, and the request context. */
interface HandlerInput<K extends OperationId> {
  params: Out<Operations[K] extends { params: infer P } ? P : undefined>;
  query: Out<Operations[K] extends { query: infer Q } ? Q : undefined>;
  body: Out<Operations[K] extends { body: infer B } ? B : undefined>;
  /** The company named by the call (uuid query or path parameter, or the token's company for order calls); null for calls that name none. */
  company: NamesCompany<Operations[K]> extends true ? CompanyRecord : null;
  ctx: RequestContext;
}

/** What a handler answers: a success status of the operation and the body the contract gives it. */
type HandlerResult<K extends OperationId> = { [S in SuccessStatus<K>]: { status: S; body: ResponseBody<K, S> } }[SuccessStatus<K>];

/** One handler for every operation of the contract: a missing one is a compile error. */
export type Handlers = { [K in OperationId]: (input: HandlerInput<K>) => Promise<HandlerResult<K>> };
export type HandlersFor<T extends OperationId> = Pick<Handlers, T>;
