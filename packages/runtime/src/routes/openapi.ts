import type { Hono, MiddlewareHandler } from 'hono';
import type { Env } from '../context.ts';

type OpenApiDocument = ReturnType<typeof import('@engagekit/contract/document').createOpenApiDocument>;
let document: Promise<OpenApiDocument> | undefined;

/**
 * `GET /openapi.json`: the contract's document, public. It names the server it was loaded from as its
 * one server, so a reference page or a generator pointed at it calls this server. The document is built
 * on the first request (its builder is loaded only then: most apps, and every test, never ask).
 */
export function openApiRoute(app: Hono<Env>, pageHeaders: MiddlewareHandler<Env>) {
  app.get('/openapi.json', pageHeaders, async (c) => {
    document ??= import('@engagekit/contract/document').then((m) => m.createOpenApiDocument());
    const built = await document;
    return c.json({ ...built, servers: [{ url: new URL(c.req.url).origin, description: 'The server this document was loaded from.' }] });
  });
}
