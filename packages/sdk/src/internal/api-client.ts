/**
 * The openapi-fetch client of the contract's paths, and the exact view of it the resource methods call:
 * a path, method, parameter or body the contract does not have is a type error.
 */
import type { Client, ClientPathsWithMethod, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '../types.ts';

/** An openapi-fetch client of the contract's paths (`client.api.agency`, `client.api.orders`, `admin.api`). */
export type ApiClient = Client<paths, 'application/json'>;

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The operation at `P` with method `M`. */
type Operation<P extends keyof paths, M extends Method> = paths[P][M] extends infer O extends Record<string | number, unknown> ? O : never;

/**
 * A method of openapi-fetch's client whose init is the operation's own type rather than a type inferred
 * from the argument: openapi-fetch infers it, and adds an index signature to it, so a query or path
 * parameter the operation does not have would compile as long as one it has is given too.
 */
type ExactMethod<M extends Method> = <P extends ClientPathsWithMethod<ApiClient, M>>(
  url: P,
  init: MaybeOptionalInit<paths[P], M>,
) => Promise<FetchResponse<Operation<P, M>, object, 'application/json'>>;

/**
 * An openapi-fetch client as the resource methods call it: the same methods, their init checked exactly.
 * A result's `data` is typed as the operation's JSON; the resource methods ask for its text
 * (`parseAs: 'text'`) and parse it themselves.
 */
export interface ContractClient {
  GET: ExactMethod<'get'>;
  PUT: ExactMethod<'put'>;
  POST: ExactMethod<'post'>;
  PATCH: ExactMethod<'patch'>;
  DELETE: ExactMethod<'delete'>;
}

/** `client` itself, typed as a `ContractClient` (nothing changes at runtime). */
export function exact(client: ApiClient): ContractClient {
  return client as unknown as ContractClient;
}
