/**
 * The JavaScript the sandbox evaluates before the code: it builds `client`, `console` and (in a
 * rehearsal) `mock` from the host functions it is handed, and returns `finish`, which turns the code's
 * promise into one JSON text. It runs inside QuickJS, so it is kept as source here, not compiled with
 * the package. The host functions stay in its closure: the code never sees them.
 *
 * Every host function takes and answers JSON text; an answer is `{ "value": ... }` or `{ "error": ... }`.
 *
 * - `host.call(request)`: a client method, made by the real SDK on the host (`{ op: 'call', name, args }`);
 *   a single call answers `{ data, status, requestId, replayed? }`, a list `{ list }`, the id of the SDK's
 *   list on the host, which `first`, `pages`, `step` and `toArray` read and `next` pages on (bridge.ts).
 * - `host.console([level, text])`.
 * - `host.mock([op, arg])` (rehearsals only): the clock's `now` and `set`, and `webhooks`, at once; `advance` later.
 *
 * `setupJson` is the JSON of `{ methods: [{ name, paged }], mock: boolean, errorFields: string[] }`.
 */
export const PRELUDE = `function (host, setupJson) {
  'use strict';
  const setup = JSON.parse(setupJson);
  const ERROR_FIELDS = setup.errorFields;
  const replacer = (key, value) => (typeof value === 'bigint' ? value.toString() : value);

  // site: an Error made where the code called, whose stack names the code's line.
  function toError(e, site) {
    const error = new Error(e.message);
    error.name = e.name;
    for (const field of ERROR_FIELDS) if (e[field] !== undefined) error[field] = e[field];
    if (site) error.stack = site.stack;
    return error;
  }
  function open(text, site) {
    const answer = JSON.parse(text);
    if (answer.error) throw toError(answer.error, site);
    return answer.value;
  }
  const send = (fn, payload) => fn(JSON.stringify(payload, replacer));
  const request = async (payload, site) => open(await send(host.call, payload), site);

  function single(name) {
    return function (...args) {
      const answer = request({ op: 'call', name, args }, new Error());
      const data = answer.then((r) => r.data);
      data.withResponse = () => answer;
      return data;
    };
  }

  // A list is the SDK's, held on the host: each step below asks it for a page, so which page is next,
  // and whether there is one, is the SDK's answer.
  function list(name) {
    return function (...args) {
      const site = new Error();
      const held = open(send(host.call, { op: 'call', name, args }), site).list;
      function page_(raw) {
        const { id, hasNext, ...fields } = raw;
        return Object.assign(fields, {
          hasNextPage: () => hasNext,
          getNextPage: async () => page_(await request({ op: 'next', page: id }, site)),
        });
      }
      let first;
      const firstPage = () => (first = first || request({ op: 'first', list: held }, site).then(page_));
      function pages() {
        const iter = open(send(host.call, { op: 'pages', list: held }), site).iter;
        return {
          async next() {
            const step = await request({ op: 'step', iter }, site);
            return step.done ? { done: true, value: undefined } : { done: false, value: page_(step.page) };
          },
          [Symbol.asyncIterator]() {
            return this;
          },
        };
      }
      async function* items() {
        for await (const page of pages()) yield* page.data;
      }
      return {
        then: (onFulfilled, onRejected) => firstPage().then(onFulfilled, onRejected),
        catch: (onRejected) => firstPage().catch(onRejected),
        finally: (onFinally) => firstPage().finally(onFinally),
        pages,
        [Symbol.asyncIterator]: items,
        toArray: (options) => request({ op: 'toArray', list: held, options }, site),
      };
    };
  }

  const client = {};
  for (const method of setup.methods) {
    const path = method.name.split('.');
    let at = client;
    for (const key of path.slice(0, -1)) at = at[key] = at[key] || {};
    at[path[path.length - 1]] = method.paged ? list(method.name) : single(method.name);
  }

  function show(value) {
    if (typeof value === 'string') return value;
    if (value instanceof Error) {
      const extra = ERROR_FIELDS.filter((f) => value[f] !== undefined).map((f) => f + ': ' + JSON.stringify(value[f]));
      return value.name + ': ' + value.message + (extra.length ? ' (' + extra.join(', ') + ')' : '');
    }
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return String(value);
    try {
      const text = JSON.stringify(value, replacer);
      return text === undefined ? String(value) : text;
    } catch (e) {
      return String(value);
    }
  }
  const console_ = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    console_[level] = (...args) => void send(host.console, [level, args.map(show).join(' ')]);
  }

  const freeze = (o) => {
    for (const v of Object.values(o)) if (v && typeof v === 'object') freeze(v);
    return Object.freeze(o);
  };
  const define = (name, value) => Object.defineProperty(globalThis, name, { value: freeze(value), writable: false, enumerable: false, configurable: false });
  define('client', client);
  define('console', console_);
  if (setup.mock) {
    // In a rehearsal, Date is the mock's clock: new Date() and Date.now() read it; a Date made from a
    // value, Date.parse and Date.UTC are the engine's own.
    const RealDate = Date;
    const nowMs = () => RealDate.parse(open(send(host.mock, ['now'])));
    function MockDate(...args) {
      if (!new.target) return new RealDate(nowMs()).toString();
      return args.length === 0 ? new RealDate(nowMs()) : new RealDate(...args);
    }
    MockDate.prototype = RealDate.prototype;
    MockDate.now = nowMs;
    MockDate.parse = RealDate.parse;
    MockDate.UTC = RealDate.UTC;
    Object.defineProperty(globalThis, 'Date', { value: Object.freeze(MockDate), writable: false, enumerable: false, configurable: false });
    define('mock', {
      clock: {
        now: () => new RealDate(nowMs()),
        set: (date) => void open(send(host.mock, ['set', date instanceof RealDate ? date.toISOString() : date])),
        advance: async (by) => void open(await send(host.mock, ['advance', by])),
      },
      webhooks: () => open(send(host.mock, ['webhooks'])),
    });
  }

  function describe(error) {
    if (error instanceof Error) {
      const out = { name: error.name, message: error.message, stack: error.stack };
      for (const field of ERROR_FIELDS) if (error[field] !== undefined) out[field] = error[field];
      return out;
    }
    return { name: 'Error', message: 'The code threw a value that is not an Error: ' + show(error) };
  }

  return function finish(promise) {
    return Promise.resolve(promise).then(
      (value) => {
        if (value === undefined) return '{}';
        let text;
        try {
          text = JSON.stringify(value, replacer);
        } catch (e) {
          return JSON.stringify({ error: { name: 'TypeError', message: 'The returned value is not JSON: ' + e.message } });
        }
        return text === undefined ? '{}' : '{"value":' + text + '}';
      },
      (error) => JSON.stringify({ error: describe(error) }, replacer),
    );
  };
}`;
