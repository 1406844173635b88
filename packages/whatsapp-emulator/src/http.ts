/**
 * The emulator's HTTP face: the Cloud API's paths (`/{version}/{phone-number-id}/messages`,
 * `/{version}/{waba-id}/message_templates`) and the control API under `/__emulator`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorControls } from './controls.ts';
import type { Answer, EmulatorCore } from './core.ts';
import { graphError } from './graph-errors.ts';
import { EmulatorOptionsError } from './options.ts';

/** The control API's prefix. */
export const CONTROL_PREFIX = '/__emulator';

const MAX_BODY_BYTES = 1024 * 1024;

/** The request body: JSON, `undefined` when empty, or a `SyntaxError`/`RangeError` naming what is wrong. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError(`the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SyntaxError(`the body is not JSON: ${(e as Error).message}`);
  }
}

function write(res: ServerResponse, answer: Answer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Waits `ms` before an answer (the `answerMs` setting); false when the client went away meanwhile. */
function answerLater(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off('close', gone);
      resolve(true);
    }, ms);
    const gone = () => {
      clearTimeout(timer);
      resolve(false);
    };
    res.once('close', gone);
  });
}

const controlError = (status: number, message: string): Answer => ({ status, body: { error: { message } } });

/** The request handler of an emulator. */
export function createHandler(core: EmulatorCore, controls: EmulatorControls) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const control = url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`);
    let body: unknown;
    try {
      body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readJson(req);
    } catch (e) {
      const message = (e as Error).message;
      return write(res, control ? controlError(400, message) : graphError(100, `Invalid request: ${message}`));
    }
    try {
      if (control) return write(res, await controlRoute(controls, req.method ?? 'GET', url.pathname.slice(CONTROL_PREFIX.length), body));
      const answer = graphRoute(core, req, url.pathname, body);
      if (core.settings.answerMs > 0 && !(await answerLater(res, core.settings.answerMs))) return;
      write(res, answer);
    } catch (e) {
      if (e instanceof EmulatorOptionsError) return write(res, controlError(400, e.message));
      console.error(e);
      write(res, control ? controlError(500, 'The emulator failed; its output says why.') : graphError(1, 'An unknown error occurred in the emulator'));
    }
  };
}

/** The Cloud API's paths. */
function graphRoute(core: EmulatorCore, req: IncomingMessage, path: string, body: unknown): Answer {
  const match = /^\/v\d+(?:\.\d+)?\/(\d+)\/(messages|message_templates)\/?$/.exec(path);
  if (!match)
    return graphError(
      100,
      `Unknown path components: ${path} is not a path this emulator serves (POST /{version}/{phone-number-id}/messages, GET or POST /{version}/{waba-id}/message_templates)`,
    );
  const denied = core.authorize(req.headers.authorization);
  if (denied) return denied;
  const [, id, edge] = match as unknown as [string, string, string];
  if (edge === 'messages') {
    if (req.method !== 'POST') return graphError(100, `Unsupported ${req.method} request on /messages: use POST`);
    const { traceparent } = req.headers;
    return core.send(id, body, typeof traceparent === 'string' ? traceparent : undefined);
  }
  if (id !== core.options.wabaId)
    return graphError(
      100,
      `Unsupported request. Object with ID '${id}' does not exist: this emulator's WhatsApp Business Account id is ${core.options.wabaId}`,
      { subcode: 33 },
    );
  if (req.method === 'POST') return core.createTemplate(body);
  if (req.method === 'GET') return core.listTemplates();
  return graphError(100, `Unsupported ${req.method} request on /message_templates: use GET or POST`);
}

/** The control API: `GET /__emulator` and the routes of the README's table. */
async function controlRoute(controls: EmulatorControls, method: string, path: string, body: unknown): Promise<Answer> {
  const state = controls.state();
  const route = `${method} ${path.replace(/\/$/, '') || '/'}`;
  switch (route) {
    case 'GET /':
      return { status: 200, body: state };
    case 'GET /messages':
      return { status: 200, body: state.messages };
    case 'GET /refused':
      return { status: 200, body: state.refused };
    case 'GET /webhooks':
      return { status: 200, body: state.webhooks };
    case 'GET /templates':
      return { status: 200, body: state.templates };
    case 'PUT /fates':
      controls.setFates(body);
      return { status: 200, body: { fates: controls.state().fates } };
    case 'PATCH /settings':
      await controls.configureVerified(body);
      return { status: 200, body: { settings: controls.state().settings } };
    case 'POST /templates/status':
      return { status: 200, body: controls.setTemplateStatus(body) };
    case 'POST /reset':
      controls.reset();
      return { status: 200, body: { reset: true } };
    case 'POST /quiet': {
      const quiet = await controls.quiet(body ?? {});
      const pending = controls.state().webhooks.filter((w) => w.state === 'waiting' || w.state === 'in-flight').length;
      return quiet
        ? { status: 200, body: { quiet: true } }
        : { status: 504, body: { quiet: false, pending, error: { message: `${pending} webhooks still wait or are in flight` } } };
    }
    default:
      return controlError(404, `No control route ${route}: see the README's control API table`);
  }
}
