/**
 * The docs index: what `search_docs` answers from and what the sandbox's `client` offers. Built into
 * dist/docs-index.json by scripts/build-index.ts from the contract, the SDK's method table and its
 * README's guides, so the server needs neither the contract package nor its schemas at run time.
 */
import { readFileSync } from 'node:fs';

/** A method of the SDK's company client, as the sandbox's `client` offers it. */
export interface SdkMethod {
  /** The method's path on the client, e.g. `campaigns.create`. */
  name: string;
  /** How it is called, e.g. `campaigns.create(body)`. */
  signature: string;
  /** How many arguments it takes before its request options (the SDK's method table says). */
  arity: number;
  /** The contract's operationId, e.g. `createCampaign`. */
  operationId: string;
  /** The HTTP method it sends: only `GET` passes in read-only mode. */
  httpMethod: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template, e.g. `/agency/getCampaign/{id}`. */
  path: string;
  /** The operation's one-line summary. */
  summary: string;
  /** For a list: the position of its params argument (where `page` goes). Absent for a single call. */
  pageParamsIndex?: number;
}

/** One entry `search_docs` can answer with. */
export interface DocEntry {
  /** Stable id, e.g. `operation:createCampaign`, `schema:Campaign`, `error:404`, `guide:pagination`. */
  id: string;
  kind: 'operation' | 'schema' | 'error' | 'guide';
  /** One line naming it, e.g. `client.campaigns.create(body): Create a campaign`. */
  title: string;
  /** The SDK methods it is about, most relevant first (at least one). */
  methods: string[];
  /** The answer, in Markdown. */
  text: string;
  /** The answer as a search shows it: the signature, the example and what to ask next (the whole `text` on asking for the entry by id). */
  short: string;
  /** A TypeScript example for `execute` (typechecked against the SDK by the package's tests). */
  example: string;
  /** Weighted counts of the entry's stems (see tokenize.ts). */
  terms: Record<string, number>;
  /** The sum of `terms`. */
  length: number;
}

/** dist/docs-index.json */
export interface DocsIndex {
  /** The package version the index was built for. */
  version: string;
  entries: DocEntry[];
  /** The company client's methods: the sandbox's bridge table. */
  methods: SdkMethod[];
}

/**
 * Where the build wrote the index: beside the package's modules in dist; from the sources (the
 * package's own tests), in its dist.
 */
const CANDIDATES = [new URL('./docs-index.json', import.meta.url), new URL('../../dist/docs-index.json', import.meta.url)];

/** Reads the index the build wrote. */
export function loadDocsIndex(): DocsIndex {
  for (const file of CANDIDATES) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    return JSON.parse(text) as DocsIndex;
  }
  throw new Error(
    `The docs index (docs-index.json) is not beside ${new URL('.', import.meta.url).pathname}: is the package built? In its repository: pnpm --filter @engagekit/mcp-server build.`,
  );
}
