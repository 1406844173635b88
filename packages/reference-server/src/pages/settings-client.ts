/**
 * The settings page's script. It runs in the browser: `page.ts` serves this function's own source,
 * so it must reference nothing outside itself. It calls the webhook endpoints of the admin API with
 * the company token the person signs in with.
 */
export function settingsClient(): void {
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

  const EVENTS = ['order.created', 'order.updated'];
  const $ = <T extends HTMLElement>(sel: string) => document.querySelector(sel) as T;
  const el = (tag: string, attrs: Record<string, string> = {}, ...children: (Node | string)[]) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const c of children) node.append(c);
    return node;
  };
  const state: { token: string | null; uuid: string | null; selected: string | null } = {
    token: sessionStorage.getItem('engagekit.token'),
    uuid: null,
    selected: null,
  };

  function companyOf(token: string): string | null {
    try {
      const part = token.split('.')[1] ?? '';
      const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string };
      return typeof json.sub === 'string' ? json.sub : null;
    } catch {
      return null;
    }
  }

  function notice(text: string, kind: 'error' | 'ok' = 'error') {
    const box = $('#notice');
    box.textContent = text;
    box.className = `notice ${kind}`;
    box.hidden = false;
  }

  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`/api/v2/companies/${state.uuid}/webhooks${path}`, {
      method,
      headers: { authorization: `Bearer ${state.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { data: T } & ApiError;
    if (!res.ok) {
      const detail = json.issues?.map((i) => `${i.path || 'input'}: ${i.message}`).join('; ');
      throw new Error(detail ? `${json.message} (${detail})` : json.message);
    }
    return json.data;
  }

  function eventBoxes(name: string, checked: string[]) {
    return el(
      'fieldset',
      { class: 'events' },
      el('legend', {}, 'Events (none ticked: all)'),
      ...EVENTS.map((e) =>
        el(
          'label',
          {},
          checked.includes(e) ? el('input', { type: 'checkbox', name, value: e, checked: '' }) : el('input', { type: 'checkbox', name, value: e }),
          ` ${e}`,
        ),
      ),
    );
  }
  const ticked = (form: HTMLFormElement, name: string) => [...form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map((i) => i.value);

  async function signIn(token: string) {
    const uuid = companyOf(token.trim());
    if (!uuid) return notice('That is not a company token: paste the JWT the admin API issued (POST /api/v2/companies/{uuid}/tokens).');
    state.token = token.trim();
    state.uuid = uuid;
    try {
      await api('GET', '?limit=1');
    } catch (e) {
      state.token = null;
      return notice(`Sign-in failed: ${(e as Error).message}`);
    }
    sessionStorage.setItem('engagekit.token', state.token);
    $('#signin').hidden = true;
    $('#main').hidden = false;
    $('#company').textContent = uuid;
    $('#notice').hidden = true;
    await refresh();
  }

  function signOut() {
    sessionStorage.removeItem('engagekit.token');
    location.reload();
  }

  async function refresh() {
    const endpoints = await api<Endpoint[]>('GET', '?limit=100');
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
    if (state.selected && endpoints.some((e) => e.id === state.selected)) await openEndpoint(state.selected);
    else $('#detail').hidden = true;
  }

  async function openEndpoint(id: string) {
    state.selected = id;
    for (const tr of document.querySelectorAll('#endpoints tr[data-id]')) tr.classList.toggle('selected', tr.getAttribute('data-id') === id);
    const ep = await api<Endpoint>('GET', `/${id}`);
    const deliveries = await api<Delivery[]>('GET', `/${id}/deliveries?limit=50`);
    const detail = $('#detail');
    detail.hidden = false;
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
      run(async () => {
        await api('PATCH', `/${id}`, {
          url: String(data.get('url')),
          description: String(data.get('description') ?? ''),
          events: ticked(form, 'edit-events'),
          enabled,
        });
        notice('Saved.', 'ok');
        await refresh();
      });
    });
    const secret = el('code', { id: 'secret', 'data-secret': ep.secret }, '•'.repeat(24));
    const attemptsOf = (d: Delivery) => d.attempts.map((a) => `#${a.attempt} ${a.status_code ?? a.error ?? '—'} ${a.latency_ms} ms`).join(' · ');
    const rows = deliveries.map((d) =>
      el(
        'tr',
        { 'data-delivery': d.id },
        el('td', {}, new Date(d.created_at).toLocaleString()),
        el('td', {}, d.event_type),
        el('td', { class: `status ${d.status}` }, d.status),
        el('td', {}, attemptsOf(d) || 'not yet attempted'),
        el('td', {}, el('button', { type: 'button', 'data-action': 'redeliver', 'data-id': d.id }, 'Redeliver')),
      ),
    );
    detail.replaceChildren(
      el('h2', {}, 'Endpoint ', el('code', {}, ep.id)),
      form,
      el(
        'p',
        { class: 'secret-row' },
        'Signing secret: ',
        secret,
        ' ',
        el('button', { type: 'button', 'data-action': 'reveal' }, 'Show'),
        ' ',
        el('button', { type: 'button', 'data-action': 'copy' }, 'Copy'),
        ' ',
        el('button', { type: 'button', 'data-action': 'rotate' }, 'Rotate'),
      ),
      el(
        'p',
        {},
        el('button', { type: 'button', 'data-action': 'test' }, 'Send test event'),
        ' ',
        el('button', { type: 'button', 'data-action': 'reload' }, 'Refresh deliveries'),
        ' ',
        el('button', { type: 'button', 'data-action': 'delete', class: 'danger' }, 'Delete endpoint'),
      ),
      el('h3', {}, 'Deliveries'),
      el(
        'table',
        { id: 'deliveries' },
        el('thead', {}, el('tr', {}, ...['Created', 'Event', 'Status', 'Attempts', ''].map((h) => el('th', {}, h)))),
        el('tbody', {}, ...(rows.length ? rows : [el('tr', {}, el('td', { colspan: '5', class: 'empty' }, 'No deliveries yet.'))])),
      ),
    );
  }

  // While any task is under way the page says so (aria-busy), for assistive technology and for tests
  // that must not read a table half way through its refresh.
  let busy = 0;
  function run(task: () => Promise<unknown>) {
    busy += 1;
    document.body.setAttribute('aria-busy', 'true');
    task()
      .catch((e: Error) => notice(e.message))
      .finally(() => {
        busy -= 1;
        if (busy === 0) document.body.setAttribute('aria-busy', 'false');
      });
  }

  document.addEventListener('click', (e) => {
    const button = (e.target as HTMLElement).closest('button[data-action]');
    if (!button) return;
    const action = button.getAttribute('data-action');
    const id = button.getAttribute('data-id');
    const selected = state.selected as string;
    run(async () => {
      if (action === 'open' && id) await openEndpoint(id);
      if (action === 'signout') signOut();
      if (action === 'reveal') {
        const s = $('#secret');
        s.textContent = s.getAttribute('data-secret');
      }
      if (action === 'copy') {
        await navigator.clipboard.writeText($('#secret').getAttribute('data-secret') ?? '');
        notice('Secret copied.', 'ok');
      }
      if (action === 'rotate') {
        await api('POST', `/${selected}/rotate-secret`, {});
        notice('Secret rotated: the old one still signs for 24 hours.', 'ok');
        await openEndpoint(selected);
      }
      if (action === 'test') {
        await api('POST', `/${selected}/test`, {});
        notice('Test event queued.', 'ok');
        await openEndpoint(selected);
      }
      if (action === 'reload') await openEndpoint(selected);
      if (action === 'redeliver' && id) {
        await api('POST', `/${selected}/deliveries/${id}/redeliver`);
        notice('Redelivery queued.', 'ok');
        await openEndpoint(selected);
      }
      if (action === 'delete' && confirm('Delete this endpoint? Its pending deliveries are dropped.')) {
        await api('DELETE', `/${selected}`);
        state.selected = null;
        notice('Endpoint deleted.', 'ok');
        await refresh();
      }
    });
  });

  $('#signin-form').addEventListener('submit', (e) => {
    e.preventDefault();
    run(() => signIn(($('#token') as HTMLTextAreaElement).value));
  });
  $('#create').addEventListener('submit', (e) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    run(async () => {
      const ep = await api<Endpoint>('POST', '', {
        url: String(data.get('url')),
        description: String(data.get('description') ?? ''),
        events: ticked(form, 'new-events'),
      });
      form.reset();
      state.selected = ep.id;
      notice('Endpoint added. Copy its signing secret below.', 'ok');
      await refresh();
    });
  });
  $('#new-events').replaceWith(eventBoxes('new-events', []));
  if (state.token) run(() => signIn(state.token as string));
}
