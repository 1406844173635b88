/**
 * The settings page's script. It runs in the browser: `settingsScript()` serves the source of the
 * functions below, so each references nothing outside this file but the browser's own globals, and
 * the others through the page (`Page`) it is given. It calls the webhook endpoints of the admin API
 * with the company token the person signs in with.
 */

type Endpoint = { id: string; url: string; description: string; events: string[]; enabled: boolean; disabled_reason: string | null; secret: string };
type Attempt = { attempt: number; started_at: string; status_code: number | null; latency_ms: number; response_excerpt: string | null; error: string | null };
type Delivery = {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  attempts: Attempt[];
};
type ApiError = { message: string; issues?: { path: string; message: string }[] };

/** What every part of the page shares: who is signed in, which endpoint is open, and the calls it makes. */
interface Page {
  state: { token: string | null; uuid: string | null; selected: string | null };
  $: <T extends HTMLElement>(sel: string) => T;
  api: <T>(method: string, path: string, body?: unknown) => Promise<T>;
  notice: (text: string, kind?: 'error' | 'ok') => void;
  /** Runs a task; while any runs the page is aria-busy, and a failure becomes the notice. */
  run: (task: () => Promise<unknown>) => void;
}

/** The page's script: the functions below, then the entry that starts it. */
export function settingsScript(): string {
  const parts = [
    el,
    payloadOf,
    companyOf,
    scopesOf,
    eventBoxes,
    ticked,
    signIn,
    refresh,
    openEndpoint,
    endpointForm,
    deliveryRow,
    detailView,
    onAction,
    onCreate,
  ];
  return `${parts.map((f) => f.toString()).join('\n')}\n(${settingsClient.toString()})();\n`;
}

/** The entry: makes the page's shared parts and wires its forms and buttons. */
function settingsClient(): void {
  let busy = 0;
  const page: Page = {
    state: { token: sessionStorage.getItem('engagekit.token'), uuid: null, selected: null },
    $: <T extends HTMLElement>(sel: string) => document.querySelector(sel) as T,
    async api<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`/api/v2/companies/${page.state.uuid}/webhooks${path}`, {
        method,
        headers: { authorization: `Bearer ${page.state.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as { data: T } & ApiError;
      if (!res.ok) {
        const detail = json.issues?.map((i) => `${i.path || 'input'}: ${i.message}`).join('; ');
        throw Object.assign(new Error(detail ? `${json.message} (${detail})` : json.message), { status: res.status });
      }
      return json.data;
    },
    notice(text, kind = 'error') {
      const box = page.$('#notice');
      box.textContent = text;
      box.className = `notice ${kind}`;
      box.hidden = false;
    },
    // While any task is under way the page says so (aria-busy), for assistive technology and for tests
    // that must not read a table half way through its refresh.
    run(task) {
      busy += 1;
      document.body.setAttribute('aria-busy', 'true');
      task()
        .catch((e: Error) => page.notice(e.message))
        .finally(() => {
          busy -= 1;
          if (busy === 0) document.body.setAttribute('aria-busy', 'false');
        });
    },
  };
  document.addEventListener('click', (e) => {
    const button = (e.target as HTMLElement).closest('button[data-action]');
    if (button) page.run(() => onAction(page, button.getAttribute('data-action'), button.getAttribute('data-id')));
  });
  page.$('#signin-form').addEventListener('submit', (e) => {
    e.preventDefault();
    page.run(() => signIn(page, page.$<HTMLTextAreaElement>('#token').value));
  });
  page.$('#create').addEventListener('submit', (e) => {
    e.preventDefault();
    page.run(() => onCreate(page, e.target as HTMLFormElement));
  });
  page.$('#new-events').replaceWith(eventBoxes('new-events', []));
  const saved = page.state.token;
  if (saved) page.run(() => signIn(page, saved));
}

/** An element with attributes and children. */
function el(tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

/** The claims of a JWT, unverified (the server verifies it); null for anything else. */
function payloadOf(token: string): { sub?: unknown; scope?: unknown } | null {
  try {
    const part = token.split('.')[1] ?? '';
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as unknown;
    return json && typeof json === 'object' ? (json as { sub?: unknown; scope?: unknown }) : null;
  } catch {
    return null;
  }
}

/** The company a company token is for (its `sub`); null for anything else. */
function companyOf(token: string): string | null {
  const sub = payloadOf(token)?.sub;
  return typeof sub === 'string' ? sub : null;
}

/** The scopes a company token says it has (its space-separated `scope`). */
function scopesOf(token: string): string[] {
  const scope = payloadOf(token)?.scope;
  return typeof scope === 'string' ? scope.split(' ') : [];
}

/** A checkbox for each event type, `checked` ticked. */
function eventBoxes(name: string, checked: string[]): HTMLElement {
  const input = (e: string) =>
    checked.includes(e) ? el('input', { type: 'checkbox', name, value: e, checked: '' }) : el('input', { type: 'checkbox', name, value: e });
  return el(
    'fieldset',
    { class: 'events' },
    el('legend', {}, 'Events (none ticked: all)'),
    ...['order.created', 'order.updated'].map((e) => el('label', {}, input(e), ` ${e}`)),
  );
}

/** The values of the ticked checkboxes named `name` in `form`. */
function ticked(form: HTMLFormElement, name: string): string[] {
  return [...form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map((i) => i.value);
}

async function signIn(page: Page, token: string): Promise<void> {
  const { state, $, notice } = page;
  const uuid = companyOf(token.trim());
  if (!uuid) return notice('That is not a company token: paste the JWT the admin API issued (POST /api/v2/companies/{uuid}/tokens).');
  state.token = token.trim();
  state.uuid = uuid;
  try {
    await page.api('GET', '?limit=1');
  } catch (e) {
    state.token = null;
    // Webhooks need the orders scope (their events are orders): say what to ask for, not just "forbidden".
    if ((e as { status?: number }).status === 403 && !scopesOf(token.trim()).includes('orders')) {
      return notice(
        'Sign-in failed: this token lacks the orders scope, which webhooks need (the events they carry are orders). Sign in with a token issued with the orders scope, or with no scopes asked for (it then has both).',
      );
    }
    return notice(`Sign-in failed: ${(e as Error).message}`);
  }
  sessionStorage.setItem('engagekit.token', state.token);
  $('#signin').hidden = true;
  $('#main').hidden = false;
  $('#company').textContent = uuid;
  $('#notice').hidden = true;
  await refresh(page);
}

/** Lists the company's endpoints again, and the open one's detail. */
async function refresh(page: Page): Promise<void> {
  const { state, $ } = page;
  const endpoints = await page.api<Endpoint[]>('GET', '?limit=100');
  const rows = endpoints.map((ep) =>
    el(
      'tr',
      { 'data-id': ep.id, class: ep.id === state.selected ? 'selected' : '' },
      el('td', { class: 'url' }, ep.url),
      el('td', {}, ep.events.length ? ep.events.join(', ') : 'all'),
      el('td', {}, ep.enabled ? 'enabled' : `disabled${ep.disabled_reason ? ` (${ep.disabled_reason})` : ''}`),
      el('td', {}, el('button', { type: 'button', 'data-action': 'open', 'data-id': ep.id }, 'Open')),
    ),
  );
  const list = $('#endpoints tbody');
  list.replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colspan: '4', class: 'empty' }, 'No endpoints yet.'))]));
  if (state.selected && endpoints.some((e) => e.id === state.selected)) await openEndpoint(page, state.selected);
  else $('#detail').hidden = true;
}

/** Shows one endpoint: its form, its secret's buttons and its deliveries. */
async function openEndpoint(page: Page, id: string): Promise<void> {
  page.state.selected = id;
  for (const tr of document.querySelectorAll('#endpoints tr[data-id]')) tr.classList.toggle('selected', tr.getAttribute('data-id') === id);
  const ep = await page.api<Endpoint>('GET', `/${id}`);
  const deliveries = await page.api<Delivery[]>('GET', `/${id}/deliveries?limit=50`);
  const detail = page.$('#detail');
  detail.hidden = false;
  detail.replaceChildren(...detailView(ep, endpointForm(page, ep), deliveries.map(deliveryRow)));
}

/** The form that edits an endpoint, saving on submit. */
function endpointForm(page: Page, ep: Endpoint): HTMLFormElement {
  const form = el(
    'form',
    { id: 'edit' },
    el('label', {}, 'URL ', el('input', { name: 'url', type: 'url', required: '', value: ep.url, size: '60' })),
    el('label', {}, 'Description ', el('input', { name: 'description', value: ep.description, size: '40' })),
    eventBoxes('edit-events', ep.events),
    el(
      'label',
      {},
      ep.enabled ? el('input', { type: 'checkbox', name: 'enabled', checked: '' }) : el('input', { type: 'checkbox', name: 'enabled' }),
      ' Enabled',
    ),
    el('button', { type: 'submit' }, 'Save'),
  ) as HTMLFormElement;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const enabled = (form.querySelector('input[name="enabled"]') as HTMLInputElement).checked;
    const data = new FormData(form);
    page.run(async () => {
      await page.api('PATCH', `/${ep.id}`, {
        url: String(data.get('url')),
        description: String(data.get('description') ?? ''),
        events: ticked(form, 'edit-events'),
        enabled,
      });
      page.notice('Saved.', 'ok');
      await refresh(page);
    });
  });
  return form;
}

/** A delivery's row: when, what, its status, its attempts, and a button to send it again. */
function deliveryRow(d: Delivery): HTMLElement {
  const attempts = d.attempts.map((a) => `#${a.attempt} ${a.status_code ?? a.error ?? '—'} ${a.latency_ms} ms`).join(' · ');
  return el(
    'tr',
    { 'data-delivery': d.id },
    el('td', {}, new Date(d.created_at).toLocaleString()),
    el('td', {}, d.event_type),
    el('td', { class: `status ${d.status}` }, d.status),
    el('td', {}, attempts || 'not yet attempted'),
    el('td', {}, el('button', { type: 'button', 'data-action': 'redeliver', 'data-id': d.id }, 'Redeliver')),
  );
}

/** An endpoint's detail: its form, its signing secret (hidden until shown), its buttons and its deliveries. */
function detailView(ep: Endpoint, form: HTMLFormElement, rows: HTMLElement[]): HTMLElement[] {
  const button = (action: string, text: string, attrs: Record<string, string> = {}) => el('button', { type: 'button', 'data-action': action, ...attrs }, text);
  const secret = el('code', { id: 'secret', 'data-secret': ep.secret }, '•'.repeat(24));
  return [
    el('h2', {}, 'Endpoint ', el('code', {}, ep.id)),
    form,
    el('p', { class: 'secret-row' }, 'Signing secret: ', secret, ' ', button('reveal', 'Show'), ' ', button('copy', 'Copy'), ' ', button('rotate', 'Rotate')),
    el('p', {}, button('test', 'Send test event'), ' ', button('reload', 'Refresh deliveries'), ' ', button('delete', 'Delete endpoint', { class: 'danger' })),
    el('h3', {}, 'Deliveries'),
    el(
      'table',
      { id: 'deliveries' },
      el('thead', {}, el('tr', {}, ...['Created', 'Event', 'Status', 'Attempts', ''].map((h) => el('th', {}, h)))),
      el('tbody', {}, ...(rows.length ? rows : [el('tr', {}, el('td', { colspan: '5', class: 'empty' }, 'No deliveries yet.'))])),
    ),
  ];
}

/** What a button with `data-action` does (`id`: its `data-id`), on the open endpoint. */
async function onAction(page: Page, action: string | null, id: string | null): Promise<void> {
  const { state, $, notice, api } = page;
  const selected = state.selected as string;
  if (action === 'open' && id) await openEndpoint(page, id);
  if (action === 'signout') {
    sessionStorage.removeItem('engagekit.token');
    location.reload();
  }
  if (action === 'reveal') $('#secret').textContent = $('#secret').getAttribute('data-secret');
  if (action === 'copy') {
    await navigator.clipboard.writeText($('#secret').getAttribute('data-secret') ?? '');
    notice('Secret copied.', 'ok');
  }
  if (action === 'rotate') {
    await api('POST', `/${selected}/rotate-secret`, {});
    notice('Secret rotated: the old one still signs for 24 hours.', 'ok');
    await openEndpoint(page, selected);
  }
  if (action === 'test') {
    await api('POST', `/${selected}/test`, {});
    notice('Test event queued.', 'ok');
    await openEndpoint(page, selected);
  }
  if (action === 'reload') await openEndpoint(page, selected);
  if (action === 'redeliver' && id) {
    await api('POST', `/${selected}/deliveries/${id}/redeliver`);
    notice('Redelivery queued.', 'ok');
    await openEndpoint(page, selected);
  }
  if (action === 'delete' && confirm('Delete this endpoint? Its pending deliveries are dropped.')) {
    await api('DELETE', `/${selected}`);
    state.selected = null;
    notice('Endpoint deleted.', 'ok');
    await refresh(page);
  }
}

/** Adds the endpoint the new-endpoint form describes, and opens it. */
async function onCreate(page: Page, form: HTMLFormElement): Promise<void> {
  const data = new FormData(form);
  const ep = await page.api<Endpoint>('POST', '', {
    url: String(data.get('url')),
    description: String(data.get('description') ?? ''),
    events: ticked(form, 'new-events'),
  });
  form.reset();
  page.state.selected = ep.id;
  page.notice('Endpoint added. Copy its signing secret below.', 'ok');
  await refresh(page);
}
