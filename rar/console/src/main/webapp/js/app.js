// The console's pages: queues, one queue (settings, statistics, charts, subscribers, messages), transformations,
// propagation schedules, create. Routed by the location's hash; figures refresh without reload (live.js).
import { api, q } from './api.js';
import { h, clear, formData, seconds } from './dom.js';
import { operate, outcome } from './dialogs.js';
import { start, onStatistics, latestOf } from './live.js';
import { charts } from './charts.js';
import { render } from './payload.js';

const page = document.getElementById('page');
let leave = () => {};
let catalog = { queueTables: [], queues: [] };

async function route() {
  leave();
  leave = () => {};
  const [name, ...rest] = location.hash.slice(1).split('/');
  const arg = decodeURIComponent(rest.join('/'));
  document.querySelectorAll('header nav a').forEach(a => a.classList.toggle('current', a.id === 'nav-' + (name || 'queues')));
  try {
    switch (name) {
      case 'queue': return await queuePage(arg);
      case 'transformations': return await transformationsPage();
      case 'schedules': return await schedulesPage();
      case 'create': return await createPage();
      default: return await queuesPage();
    }
  } catch (e) {
    clear(page, h('p', { class: 'off' }, e.message));
  }
}

async function loadCatalog() {
  catalog = await api('GET', 'catalog');
  return catalog;
}

// ------------------------------------------------------------------ queues

async function queuesPage() {
  await loadCatalog();
  const rows = [];
  for (const table of catalog.queueTables) {
    rows.push(h('tr', { class: 'table-row', dataset: { table: table.qualified } },
      h('td', { colspan: 2 }, table.qualified),
      h('td', { colspan: 9 }, `${table.payloadType}${table.objectType ? ' ' + table.objectType : ''} · ${table.sortOrder}`
        + ` · ${table.multipleConsumers ? 'multiple consumers' : 'single consumer'}`
        + (table.grouping !== 'NONE' ? ' · transactional grouping' : '') + (table.comment ? ` · ${table.comment}` : ''))));
    for (const queue of catalog.queues.filter(x => x.queueTable === table.qualified)) {
      rows.push(h('tr', { dataset: { queue: queue.qualified } },
        h('td', {}, ''),
        h('td', {}, h('a', { class: 'link', href: '#queue/' + q(queue.qualified) }, queue.qualified)),
        h('td', {}, queue.type === 'EXCEPTION' ? 'exception' : 'normal'),
        h('td', { class: queue.enqueueEnabled ? 'on' : 'off' }, queue.enqueueEnabled ? 'yes' : 'no'),
        h('td', { class: queue.dequeueEnabled ? 'on' : 'off' }, queue.dequeueEnabled ? 'yes' : 'no'),
        ...['ready', 'waiting', 'expired'].map(f => h('td', { class: 'num', dataset: { field: f } }, '…')),
        h('td', { class: 'num', dataset: { field: 'averageWait' } }, '…'),
        h('td', { class: 'num' }, queue.maxRetries), h('td', { class: 'num' }, seconds(queue.retryDelay))));
    }
  }
  clear(page, h('h2', {}, 'Queue tables and queues'),
    h('table', { id: 'queues' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Queue table'), h('th', {}, 'Queue'), h('th', {}, 'Type'), h('th', {}, 'Enqueue'),
        h('th', {}, 'Dequeue'), h('th', { class: 'num' }, 'Ready'), h('th', { class: 'num' }, 'Waiting'),
        h('th', { class: 'num' }, 'Expired'), h('th', { class: 'num' }, 'Average wait'), h('th', { class: 'num' }, 'Max retries'),
        h('th', { class: 'num' }, 'Retry delay'))),
      h('tbody', {}, rows)));
  leave = onStatistics(stats => {
    for (const s of stats.queues) {
      const row = page.querySelector(`tr[data-queue="${CSS.escape(s.queue)}"]`);
      if (!row) continue;
      for (const f of ['ready', 'waiting', 'expired']) row.querySelector(`[data-field=${f}]`).textContent = s[f];
      row.querySelector('[data-field=averageWait]').textContent = s.ready ? seconds(s.averageWait) : '';
    }
  });
}

// ------------------------------------------------------------------ one queue

async function queuePage(name) {
  await loadCatalog();
  const queue = catalog.queues.find(x => x.qualified === name);
  if (!queue) throw new Error(`AQ-24010: Queue ${name} does not exist.`);
  const table = catalog.queueTables.find(t => t.qualified === queue.queueTable) || {};
  const subscribers = queue.multipleConsumers && queue.type !== 'EXCEPTION' ? await api('GET', `queues/${q(name)}/subscribers`) : [];
  const settings = h('dl', { class: 'props' },
    h('dt', {}, 'Queue table'), h('dd', {}, queue.queueTable),
    h('dt', {}, 'Payload'), h('dd', {}, table.payloadType + (table.objectType ? ' ' + table.objectType : '')),
    h('dt', {}, 'Type'), h('dd', {}, queue.type),
    h('dt', {}, 'Enqueue'), h('dd', { id: 'enqueue-state', class: queue.enqueueEnabled ? 'on' : 'off' }, queue.enqueueEnabled ? 'enabled' : 'disabled'),
    h('dt', {}, 'Dequeue'), h('dd', { id: 'dequeue-state', class: queue.dequeueEnabled ? 'on' : 'off' }, queue.dequeueEnabled ? 'enabled' : 'disabled'),
    h('dt', {}, 'Max retries'), h('dd', {}, queue.maxRetries),
    h('dt', {}, 'Retry delay'), h('dd', {}, seconds(queue.retryDelay)),
    h('dt', {}, 'Retention'), h('dd', {}, seconds(queue.retention)),
    h('dt', {}, 'Comment'), h('dd', {}, queue.comment || ''));
  const again = () => route();
  const base = `queues/${q(name)}`;
  const operations = h('div', { class: 'toolbar' },
    h('button', { id: 'start-queue', onclick: async () => (await operate(`Start ${name} for enqueue and dequeue?`,
      () => api('POST', base + '/start', { enqueue: queue.type !== 'EXCEPTION', dequeue: true }))) && again() }, 'Start'),
    h('button', { id: 'stop-queue', class: 'danger', onclick: async () => (await operate(`Stop ${name} for enqueue and dequeue? `
      + 'Producers and consumers are refused until it is started again.',
      () => api('POST', base + '/stop', { enqueue: true, dequeue: true, wait: false }))) && again() }, 'Stop'),
    h('button', { id: 'alter-queue', onclick: async () => {
      const field = (label, name, value) => h('label', {}, label + ' ', h('input', { name, value: value ?? '', size: 12 }));
      const form = h('div', { class: 'toolbar' }, field('Max retries', 'maxRetries', queue.maxRetries),
        field('Retry delay (s)', 'retryDelay', queue.retryDelay), field('Retention (s)', 'retention', queue.retention),
        field('Comment', 'comment', queue.comment));
      const values = () => Object.fromEntries(Array.from(form.querySelectorAll('input')).map(i => [i.name, i.value.trim() || null]));
      if (await operate(`Alter ${name}?`, () => api('PUT', base, values()), form)) again();
    } }, 'Alter'),
    h('button', { id: 'drop-queue', class: 'danger', onclick: async () => (await operate(`Drop ${name} with its messages? `
      + 'It must be stopped first.', () => api('DELETE', base))) && (location.hash = '#queues') }, 'Drop'));
  const figures = h('div', { id: 'figures' });
  const chartBox = h('div', { class: 'charts', id: 'charts' });
  clear(page, h('h2', {}, 'Queue ', h('span', { id: 'queue-name' }, name)),
    h('div', { class: 'grid' }, h('div', { class: 'card' }, h('h3', {}, 'Settings'), settings, operations),
      h('div', { class: 'card' }, h('h3', {}, 'Messages by state'), figures)),
    h('h3', {}, 'Live'), chartBox,
    queue.multipleConsumers && queue.type !== 'EXCEPTION' ? subscribersSection(name, subscribers) : null,
    await browserSection(queue, table, subscribers));
  const redraw = charts(chartBox, name);
  leave = onStatistics(() => {
    redraw();
    const s = latestOf(name);
    if (!s) return;
    clear(figures, h('dl', { class: 'props' },
      h('dt', {}, 'Ready'), h('dd', { id: 'stat-ready' }, s.ready),
      h('dt', {}, 'Waiting'), h('dd', { id: 'stat-waiting' }, s.waiting),
      h('dt', {}, 'Expired'), h('dd', { id: 'stat-expired' }, s.expired),
      h('dt', {}, 'Total wait'), h('dd', {}, seconds(s.totalWait)),
      h('dt', {}, 'Average wait'), h('dd', {}, seconds(s.averageWait)),
      h('dt', {}, 'Oldest READY'), h('dd', {}, seconds(s.oldestReady)),
      ...(s.enqueued === undefined ? [] : [h('dt', {}, 'Since the engine started'),
        h('dd', { id: 'stat-counters' }, `${s.enqueued} enqueued · ${s.dequeued} dequeued · ${s.failedAttempts} failed attempts`)])),
      s.consumers.length ? h('table', { id: 'consumer-figures' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Consumer'), h('th', { class: 'num' }, 'Ready'), h('th', { class: 'num' }, 'Waiting'),
          h('th', { class: 'num' }, 'Expired'), h('th', { class: 'num' }, 'Average wait'), h('th', { class: 'num' }, 'Oldest READY'))),
        h('tbody', {}, s.consumers.map(c => h('tr', {}, h('td', {}, c.name || c.address), h('td', { class: 'num' }, c.ready),
          h('td', { class: 'num' }, c.waiting), h('td', { class: 'num' }, c.expired), h('td', { class: 'num' }, seconds(c.averageWait)),
          h('td', { class: 'num' }, seconds(c.oldestReady))))))
        : null);
  });
}

function subscribersSection(name, subscribers) {
  const base = `queues/${q(name)}/subscribers`;
  const again = () => route();
  const add = h('form', { class: 'create', id: 'add-subscriber' },
    h('label', {}, 'Name', h('input', { name: 'name', id: 'subscriber-name' })),
    h('label', {}, 'Address (remote queue)', h('input', { name: 'address' })),
    h('label', {}, 'Rule', h('input', { name: 'rule', id: 'subscriber-rule', size: 40 })),
    h('label', {}, 'Syntax', h('select', { name: 'syntax' }, h('option', {}, 'CONDITION'), h('option', {}, 'SELECTOR'))),
    h('label', {}, 'Transformation', h('input', { name: 'transformation' })),
    h('button', { type: 'submit', id: 'add-subscriber-button' }, 'Add subscriber'));
  add.addEventListener('submit', async e => {
    e.preventDefault();
    const s = formData(add);
    if (await operate(`Add subscriber ${s.name || s.address} to ${name}?`, () => api('POST', base, s))) again();
  });
  return h('section', {}, h('h3', {}, 'Subscribers'),
    h('table', { id: 'subscribers' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Address'), h('th', {}, 'Rule'), h('th', {}, 'Syntax'),
        h('th', {}, 'Transformation'), h('th', {}, ''))),
      h('tbody', {}, subscribers.map(s => h('tr', { dataset: { subscriber: s.name || s.address } },
        h('td', {}, s.name || ''), h('td', {}, s.address || ''), h('td', {}, h('code', {}, s.rule || '')), h('td', {}, s.syntax),
        h('td', {}, s.transformation || ''),
        h('td', {},
          h('button', { onclick: async () => {
            const input = h('input', { id: 'alter-rule', size: 50, value: s.rule || '' });
            if (await operate(`Change the rule of ${s.name || s.address} (empty: every message)?`,
              () => api('PUT', base, { ...s, rule: input.value }), input)) again();
          } }, 'Alter'), ' ',
          h('button', { class: 'danger', onclick: async () => (await operate(`Remove subscriber ${s.name || s.address}? `
            + 'Its pending messages become undeliverable to it.',
            () => api('DELETE', `${base}?name=${q(s.name || '')}&address=${q(s.address || '')}&protocol=${s.protocol}`))) && again() },
          'Remove')))))),
    add);
}

async function browserSection(queue, table, subscribers) {
  const name = queue.qualified;
  const exception = queue.type === 'EXCEPTION';
  const filters = h('form', { class: 'toolbar', id: 'browse-filters' },
    subscribers.length ? h('label', {}, 'Consumer', h('select', { name: 'consumer', id: 'browse-consumer' },
      subscribers.filter(s => s.name).map(s => h('option', {}, s.name)))) : null,
    // '' / READY / EXPIRED: what a dequeue could take (BROWSE); the others: the AQ$ view's rows of every state
    h('label', {}, 'State', h('select', { name: 'state', id: 'browse-state' },
      [['', 'dequeueable'], ['READY', 'READY'], ['EXPIRED', 'EXPIRED'], ['WAITING', 'WAITING'], ['PROCESSED', 'PROCESSED'],
        ['ALL', 'every state']].map(([v, t]) => h('option', { value: v }, t)))),
    h('label', {}, 'Correlation (% _)', h('input', { name: 'correlation', id: 'browse-correlation' })),
    h('label', {}, 'Condition', h('input', { name: 'condition', id: 'browse-condition', size: 40 })),
    h('button', { type: 'submit', id: 'browse' }, 'Browse'));
  const list = h('div', { id: 'messages' });
  const detail = h('div', { id: 'message' });
  let offset = 0;
  const size = 25;
  const selected = () => Array.from(list.querySelectorAll('input[type=checkbox]:checked')).map(c => c.value);
  // the pages of the records view are read by key: the last message id of each page before the current one
  let afters = [];
  const recordsView = f => ['WAITING', 'PROCESSED', 'ALL'].includes(f.state);
  const loadRecords = async f => {
    const after = afters.length ? afters[afters.length - 1] : '';
    const params = new URLSearchParams({ limit: size });
    if (f.state !== 'ALL') params.set('state', f.state);
    if (after) params.set('after', after);
    try {
      const answer = await api('GET', `queues/${q(name)}/messages/records?${params}`);
      clear(list,
        h('table', { id: 'message-list' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Message id'), h('th', {}, 'State'), h('th', { class: 'num' }, 'Priority'),
            h('th', {}, 'Correlation'), h('th', { class: 'num' }, 'Attempts'), h('th', {}, 'Enqueued'), h('th', {}, 'Consumers'))),
          h('tbody', {}, answer.messages.map(m => h('tr', { dataset: { message: m.messageId } },
            h('td', {}, h('a', { class: 'link', onclick: () => showRecord(m) }, h('code', {}, m.messageId))),
            h('td', {}, m.state), h('td', { class: 'num' }, m.priority), h('td', {}, m.correlation || ''),
            h('td', { class: 'num' }, m.attempts), h('td', {}, m.enqueueTime ? new Date(m.enqueueTime).toLocaleString() : ''),
            h('td', {}, m.consumers.map(c => `${c.consumer.name || c.consumer.address}: ${c.state}`).join(', ')))))),
        h('div', { class: 'toolbar' },
          h('button', { id: 'previous-page', disabled: !afters.length, onclick: () => { afters.pop(); load(); } }, 'Previous'),
          h('span', { id: 'page-range' }, answer.messages.length ? `${answer.messages.length} message(s)` : 'no messages'),
          h('button', { id: 'next-page', disabled: !answer.more, onclick: () => {
            afters.push(answer.messages[answer.messages.length - 1].messageId); load();
          } }, 'Next')));
    } catch (e) {
      clear(list, h('p', { class: 'off' }, e.message));
    }
  };
  // a message of the records view: what the queue recorded, and each consumer's part with its dequeue history
  const showRecord = m => {
    clear(detail, h('h3', {}, 'Message ', h('code', {}, m.messageId)),
      h('div', { class: 'grid' },
        h('div', { class: 'card' }, h('dl', { class: 'props', id: 'message-properties' },
          ...[['State', m.state], ['Priority', m.priority], ['Correlation', m.correlation], ['Attempts', m.attempts],
            ['Enqueued', m.enqueueTime], ['Enqueued by', m.enqueueUser], ['Ready from', m.delayUntil],
            ['Expiration', seconds(m.expiration)], ['Exception queue', m.exceptionQueue], ['Original queue', m.originalQueue],
            ['Dequeued', m.dequeueTime], ['Dequeued by', m.dequeueUser], ['Dequeue transaction', m.dequeueTransaction]]
            .filter(([, v]) => v !== null && v !== undefined && v !== '')
            .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))]))),
        m.consumers.length ? h('div', { class: 'card' }, h('h3', {}, 'Consumers'),
          h('table', { id: 'consumer-history' },
            h('thead', {}, h('tr', {}, ...['Consumer', 'State', 'Attempts', 'Dequeued', 'By', 'Transaction'].map(t => h('th', {}, t)))),
            h('tbody', {}, m.consumers.map(c => h('tr', {},
              h('td', {}, c.consumer.name || c.consumer.address), h('td', {}, c.state), h('td', { class: 'num' }, c.attempts),
              h('td', {}, c.dequeueTime ? new Date(c.dequeueTime).toLocaleString() : ''), h('td', {}, c.dequeueUser || ''),
              h('td', {}, h('code', {}, c.dequeueTransaction || ''))))))) : null));
    detail.scrollIntoView({ block: 'start' });
  };
  const load = async () => {
    const f = formData(filters);
    if (recordsView(f)) return loadRecords(f);
    const params = new URLSearchParams({ offset, limit: size });
    for (const [k, v] of Object.entries(f)) if (v) params.set(k, v);
    try {
      const answer = await api('GET', `queues/${q(name)}/messages?${params}`);
      clear(list,
        h('table', { id: 'message-list' },
          h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Message id'), h('th', {}, 'State'), h('th', { class: 'num' }, 'Priority'),
            h('th', {}, 'Correlation'), h('th', { class: 'num' }, 'Attempts'), h('th', {}, 'Enqueued'), h('th', {}, 'Payload'))),
          h('tbody', {}, answer.messages.map(m => h('tr', { dataset: { message: m.messageId } },
            h('td', {}, h('input', { type: 'checkbox', value: m.messageId })),
            h('td', {}, h('a', { class: 'link', onclick: () => show(m.messageId, f.consumer) }, h('code', {}, m.messageId))),
            h('td', {}, m.state), h('td', { class: 'num' }, m.priority), h('td', {}, m.correlation || ''),
            h('td', { class: 'num' }, m.attempts), h('td', {}, m.enqueueTime ? new Date(m.enqueueTime).toLocaleString() : ''),
            h('td', {}, h('code', {}, m.payload.length > 80 ? m.payload.slice(0, 80) + '…' : m.payload)))))),
        h('div', { class: 'toolbar' },
          h('button', { id: 'previous-page', disabled: offset === 0, onclick: () => { offset = Math.max(0, offset - size); load(); } }, 'Previous'),
          h('span', { id: 'page-range' }, answer.messages.length ? `messages ${offset + 1}–${offset + answer.messages.length}` : 'no messages'),
          h('button', { id: 'next-page', disabled: !answer.more, onclick: () => { offset += size; load(); } }, 'Next'),
          exception ? exceptionActions() : null));
    } catch (e) {
      clear(list, h('p', { class: 'off' }, e.message));
    }
  };
  const exceptionActions = () => {
    const targets = catalog.queues.filter(x => x.queueTable === queue.queueTable && x.type !== 'EXCEPTION');
    // by default each message goes back to the queue it was moved from (recorded by the engine); one that has
    // none recorded (moved by an older Aqueduct) needs a queue chosen here
    const target = () => h('select', { id: 'requeue-target' }, h('option', { value: '' }, 'the queue each came from'),
      targets.map(t => h('option', { value: t.qualified }, t.qualified)));
    return [
      h('button', { id: 'requeue', onclick: async () => {
        const ids = selected();
        if (!ids.length) return outcome('Select the messages to requeue first.', true);
        const select = target();
        if (await operate(`Requeue ${ids.length} message(s) to the queue below, attempts reset?`,
          () => api('POST', `queues/${q(name)}/messages/requeue`, select.value ? { target: select.value, messageIds: ids } : { messageIds: ids }),
          h('label', {}, 'Queue ', select))) load();
      } }, 'Requeue selected'),
      h('button', { id: 'purge-selected', class: 'danger', onclick: async () => {
        const ids = selected();
        if (!ids.length) return outcome('Select the messages to purge first.', true);
        if (await operate(`Purge ${ids.length} message(s) from ${name}? They are gone for good.`,
          () => api('POST', `queues/${q(name)}/messages/purge`, { messageIds: ids }))) load();
      } }, 'Purge selected'),
      h('button', { id: 'purge-all', class: 'danger', onclick: async () => (await operate(`Purge every message of ${name}? `
        + 'They are gone for good.', () => api('POST', `queues/${q(name)}/messages/purge`, { all: true }))) && load() }, 'Purge all'),
    ];
  };
  const show = async (id, consumer) => {
    try {
      const m = await api('GET', `queues/${q(name)}/messages/${q(id)}` + (consumer ? `?consumer=${q(consumer)}` : ''));
      clear(detail, h('h3', {}, 'Message ', h('code', {}, m.messageId)),
        h('div', { class: 'grid' },
          h('div', { class: 'card' }, h('dl', { class: 'props', id: 'message-properties' },
            ...[['State', m.state], ['Priority', m.priority], ['Correlation', m.correlation], ['Attempts', m.attempts],
              ['Enqueued', m.enqueueTime], ['Delay', seconds(m.delay)], ['Expiration', seconds(m.expiration)],
              ['Exception queue', m.exceptionQueue], ['Sender', m.sender && (m.sender.name || '') + (m.sender.address ? ' @ ' + m.sender.address : '')],
              ['Original message', m.originalMessageId], ['Original queue', m.originalQueue], ['Delivery mode', m.deliveryMode],
              ['Recipients', m.recipients.map(r => r.name || r.address).join(', ')],
              ['Pending for', consumer ? m.pendingFor.join(', ') || 'no consumer' : null],
              ...Object.entries(m.properties).map(([k, v]) => ['Property ' + k, v])]
              .filter(([, v]) => v !== null && v !== undefined && v !== '')
              .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))]))),
          h('div', { class: 'card' }, h('h3', {}, `Payload (${m.payloadKind === 'RAW' ? 'RAW, ' + m.payloadBytes + ' bytes' : table.payloadType})`),
            h('pre', { class: 'payload', id: 'payload' }, render(m.payloadKind, table.payloadType, m.payload)))));
      detail.scrollIntoView({ block: 'start' });
    } catch (e) {
      outcome(e.message, true);
    }
  };
  filters.addEventListener('submit', e => { e.preventDefault(); offset = 0; afters = []; load(); });
  load();
  return h('section', {}, h('h3', {}, 'Messages'), filters, list, detail);
}

// ------------------------------------------------------------------ transformations, schedules

async function transformationsPage() {
  const all = await api('GET', 'transformations');
  clear(page, h('h2', {}, 'Transformations'), all.length === 0 ? h('p', {}, 'No transformations.') :
    h('table', { id: 'transformations' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'From'), h('th', {}, 'To'), h('th', {}, 'Definition'))),
      h('tbody', {}, all.map(t => h('tr', {}, h('td', {}, t.name), h('td', {}, t.fromType), h('td', {}, t.toType),
        h('td', {}, t.functionClass ? h('code', {}, t.functionClass)
          : Object.entries(t.attributes).map(([a, e]) => h('div', {}, h('code', {}, `${a} = ${e}`)))))))));
}

async function schedulesPage() {
  const all = await api('GET', 'schedules');
  const again = () => route();
  clear(page, h('h2', {}, 'Propagation schedules'), all.length === 0 ? h('p', {}, 'No schedules.') :
    h('table', { id: 'schedules' },
      h('thead', {}, h('tr', {}, ...['Queue', 'Destination', 'State', 'Latency', 'Window', 'Last run', 'Next run', 'Messages',
        'Bytes', 'Average time', 'Failures', 'Last error', ''].map(t => h('th', {}, t)))),
      h('tbody', {}, all.map(s => h('tr', { dataset: { schedule: s.queue + '/' + s.destination } },
        h('td', {}, s.queue), h('td', {}, s.destination), h('td', { class: s.disabled ? 'off' : 'on' }, s.disabled ? 'disabled' : 'enabled'),
        h('td', { class: 'num' }, seconds(s.latency)), h('td', {}, s.window === null ? 'no end' : seconds(s.window)),
        h('td', {}, s.lastRun ? new Date(s.lastRun).toLocaleString() : ''), h('td', {}, s.nextRun ? new Date(s.nextRun).toLocaleString() : ''),
        h('td', { class: 'num' }, s.totalNumber), h('td', { class: 'num' }, s.totalBytes),
        h('td', { class: 'num' }, s.averageTime.toFixed(3) + ' s'), h('td', { class: 'num' }, s.failures),
        h('td', {}, s.lastError || ''),
        h('td', {}, h('button', { class: s.disabled ? '' : 'danger', onclick: async () => {
          const action = s.disabled ? 'enable' : 'disable';
          if (await operate(`${s.disabled ? 'Enable' : 'Disable'} propagation of ${s.queue} to ${s.destination}?`,
            () => api('POST', `schedules/${q(s.queue)}/${q(s.destination)}/${action}`))) again();
        } }, s.disabled ? 'Enable' : 'Disable')))))));
}

// ------------------------------------------------------------------ create / drop

async function createPage() {
  await loadCatalog();
  const again = () => route();
  const tableForm = h('form', { class: 'create', id: 'create-queue-table' },
    h('label', {}, 'Name ([schema.]name)', h('input', { name: 'name', required: true })),
    h('label', {}, 'Payload', h('select', { name: 'payloadType' }, ['RAW', 'TEXT', 'JSON', 'XML', 'OBJECT'].map(t => h('option', {}, t)))),
    h('label', {}, 'Object type (OBJECT)', h('input', { name: 'objectType' })),
    h('label', {}, 'Sort order', h('select', { name: 'sortOrder' }, ['ENQ_TIME', 'PRIORITY,ENQ_TIME', 'ENQ_TIME,PRIORITY'].map(t => h('option', {}, t)))),
    h('label', {}, 'Consumers', h('select', { name: 'multipleConsumers' }, h('option', { value: 'false' }, 'single'), h('option', { value: 'true' }, 'multiple'))),
    h('label', {}, 'Grouping', h('select', { name: 'grouping' }, h('option', {}, 'NONE'), h('option', {}, 'TRANSACTIONAL'))),
    h('label', {}, 'Comment', h('input', { name: 'comment' })),
    h('button', { type: 'submit' }, 'Create queue table'));
  tableForm.addEventListener('submit', async e => {
    e.preventDefault();
    const f = formData(tableForm);
    f.multipleConsumers = f.multipleConsumers === 'true';
    if (await operate(`Create queue table ${f.name}?`, () => api('POST', 'queue-tables', f))) again();
  });
  const queueForm = h('form', { class: 'create', id: 'create-queue' },
    h('label', {}, 'Name ([schema.]name)', h('input', { name: 'name', required: true })),
    h('label', {}, 'Queue table', h('select', { name: 'queueTable' }, catalog.queueTables.map(t => h('option', {}, t.qualified)))),
    h('label', {}, 'Type', h('select', { name: 'type' }, h('option', {}, 'NORMAL'), h('option', {}, 'EXCEPTION'))),
    h('label', {}, 'Max retries', h('input', { name: 'maxRetries', type: 'number', placeholder: '5' })),
    h('label', {}, 'Retry delay (s)', h('input', { name: 'retryDelay', type: 'number', placeholder: '0' })),
    h('label', {}, 'Retention (s, -1 forever)', h('input', { name: 'retention', type: 'number', placeholder: '0' })),
    h('label', {}, 'Comment', h('input', { name: 'comment' })),
    h('button', { type: 'submit' }, 'Create queue'));
  queueForm.addEventListener('submit', async e => {
    e.preventDefault();
    const f = formData(queueForm);
    if (await operate(`Create queue ${f.name} in ${f.queueTable}?`, () => api('POST', 'queues', f))) again();
  });
  const force = h('input', { type: 'checkbox', id: 'drop-force' });
  clear(page, h('h2', {}, 'Create a queue table'), tableForm, h('h2', {}, 'Create a queue'), queueForm,
    h('h2', {}, 'Drop a queue table'),
    h('table', {}, h('tbody', {}, catalog.queueTables.map(t => h('tr', {}, h('td', {}, t.qualified),
      h('td', {}, h('button', { class: 'danger', onclick: async () => {
        const box = h('label', {}, force, ' also stop and drop its queues (force)');
        if (await operate(`Drop queue table ${t.qualified}?`,
          () => api('DELETE', `queue-tables/${q(t.qualified)}?force=${force.checked}`), box)) again();
      } }, 'Drop')))))));
}

window.addEventListener('hashchange', route);
start();
route();
