import { describe, expect, it } from 'vitest';
import { TextResponse } from '../src/internal/text-response.ts';

const TEXT = '{"success":true,"data":{"name":"Crème brûlée ☕"}}';
const HEADERS = { 'content-type': 'application/json', 'x-request-id': 'req_1' };
const made = () => new TextResponse(TEXT, 201, { ...HEADERS });
const runtime = () => new Response(TEXT, { status: 201, headers: HEADERS });

/** What a caller can see of a Response after `steps`: each step's result, or the name of what it threw. */
async function seen(res: Response, steps: ((res: Response) => unknown)[]) {
  const out: unknown[] = [];
  for (const step of steps) {
    try {
      const value = await step(res);
      out.push(value instanceof Headers ? [...value] : value instanceof ArrayBuffer || value instanceof Uint8Array ? [...new Uint8Array(value)] : value);
    } catch (err) {
      out.push(`threw ${(err as Error).name}`);
    }
  }
  return out;
}

describe('TextResponse', () => {
  it('is a Response, with the status, headers and text it was made with', async () => {
    const res = made();
    expect(res).toBeInstanceOf(Response);
    expect(Object.prototype.toString.call(res)).toBe('[object Response]');
    expect([res.status, res.ok, res.statusText, res.type, res.url, res.redirected, res.bodyUsed]).toEqual([201, true, '', 'default', '', false, false]);
    expect(await res.text()).toBe(TEXT);
    expect(res.bodyUsed).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('req_1');
    expect(new TextResponse('{}', 404, {}).ok).toBe(false);
  });

  it('reads as a Response of the runtime does, whatever the order of the reads', async () => {
    const text = (r: Response) => r.text();
    const json = (r: Response) => r.json();
    const used = (r: Response) => r.bodyUsed;
    const headers = (r: Response) => r.headers;
    const setHeader = (r: Response) => r.headers.set('x-other', '1');
    const bytes = (r: Response) => r.arrayBuffer();
    const cloneText = (r: Response) => r.clone().text();
    const stream = async (r: Response) => {
      const reader = (r.body as ReadableStream<Uint8Array>).getReader();
      const chunks: number[] = [];
      for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(...read.value);
      return new TextDecoder().decode(new Uint8Array(chunks));
    };
    const orders = [
      [text, text, used],
      [json, used, json, headers],
      [headers, setHeader, text, text],
      [used, cloneText, used, json, cloneText],
      [stream, used, text],
      [bytes, json],
      [text, stream],
      [text, cloneText, headers],
      [json, bytes, used],
    ];
    for (const steps of orders) expect(await seen(made(), steps)).toEqual(await seen(runtime(), steps));
  });

  it('is a Response under the Response the global scope holds when it is made (@hono/node-server puts its own there)', () => {
    const runtimeResponse = globalThis.Response;
    class LightResponse {}
    Object.setPrototypeOf(LightResponse.prototype, runtimeResponse.prototype);
    try {
      globalThis.Response = LightResponse as unknown as typeof Response;
      const res = made();
      expect(res).toBeInstanceOf(LightResponse);
      expect(res).toBeInstanceOf(runtimeResponse);
    } finally {
      globalThis.Response = runtimeResponse;
    }
    expect(made()).toBeInstanceOf(Response);
  });

  it('rejects json() of text that is not JSON, as a Response does', async () => {
    await expect(new TextResponse('<html>', 502, {}).json()).rejects.toThrow(SyntaxError);
  });

  it('becomes a Response of the runtime for the HTTP mode, and leaves other Responses as they are', async () => {
    const res = TextResponse.toRuntime(made());
    expect(res).not.toBeInstanceOf(TextResponse);
    expect(res.status).toBe(201);
    expect([...res.headers]).toEqual([...runtime().headers]);
    expect(await res.text()).toBe(TEXT);
    const other = runtime();
    expect(TextResponse.toRuntime(other)).toBe(other);
  });
});
