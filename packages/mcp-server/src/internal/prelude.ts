/**
 * The JavaScript the sandbox evaluates before the code: it builds `client`, `console` and (in a
 * rehearsal) `mock` from the host functions it is handed, and returns `finish`, which turns the code's
 * promise into one JSON text. It runs inside QuickJS, so it is kept as source here, not compiled with
 * the package. The host functions stay in its closure: the code never sees them.
 *
 * Every host function takes and answers JSON text; an answer is `{ "value": ... }` or `{ "error": ... }`.
 *
 * - `host.call({ name, args, page? })`: a client method, made by the real SDK on the host. A single
 *   call answers `{ data, status, requestId }`; a page fetch (`page` set) answers the page's fields.
 * - `host.console([level, text])`.
 * - `host.clock([op, arg])` (rehearsals only): `now`, `set` at once; `advance` later.
 *
 * `setupJson` is the JSON of `{ methods: [{ name, paged }], mock: boolean }`.
 */
export const PRELUDE = `function (host, setupJson) {
  'use strict';
  const setup = JSON.parse(setupJson);
  const ERROR_FIELDS = ['status', 'code', 'requestId', 'issues', 'operation'];
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
      const answer = request({ name, args }, new Error());
      const data = answer.then((r) => r.data);
      data.withResponse = () => answer;
      return data;
    };
  }

  function list(name) {
    return function (...args) {
      const site = new Error();
      const fetchPage = async (page) => page_(await request({ name, args, page }, site));
      function page_(raw) {
        return Object.assign({}, raw, {
          hasNextPage: () => raw.nextPage !== null,
          getNextPage: () =>
            raw.nextPage === null
              ? Promise.reject(new RangeError('Page ' + raw.page + ' is the last page; check hasNextPage() first.'))
              : fetchPage(raw.nextPage),
        });
      }
      let first;
      const firstPage = () => (first = first || fetchPage(null));
      async function* pages() {
        let page = await firstPage();
        for (;;) {
          yield page;
          if (page.nextPage === null) return;
          page = await fetchPage(page.nextPage);
        }
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
        async toArray(options) {
          const max = options && options.max;
          if (!(typeof max === 'number' && max > 0)) throw new TypeError('toArray({ max }) needs max: the most items to collect, a number above 0.');
          const out = [];
          for await (const item of items()) {
            out.push(item);
            if (out.length >= max) break;
          }
          return out;
        },
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
    define('mock', {
      clock: {
        now: () => new Date(open(send(host.clock, ['now']))),
        set: (date) => void open(send(host.clock, ['set', date instanceof Date ? date.toISOString() : date])),
        advance: async (by) => void open(await send(host.clock, ['advance', by])),
      },
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
