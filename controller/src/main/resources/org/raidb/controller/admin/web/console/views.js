// The console's views, each drawn anew from the admin API at every refresh.
import { get, post, vdbPath } from './api.js';
import { el, button, show, ask } from './dom.js';
import { operationsTable } from './operations.js';

let say = () => {};

/** Where actions report their answers (the page's message line). */
export function reportTo(reporter) {
  say = reporter;
}

/** Runs an admin API action and says how it went; the refresh that follows shows its effect. */
async function act(path, parameters, refresh) {
  const answer = await post(path, parameters);
  const body = answer.body || {};
  const checkpoint = body.checkpoint
    ? `checkpoint ${body.checkpoint.name} written at log position ${body.checkpoint.writePosition}` : null;
  say(body.message || checkpoint || body.error || `HTTP ${answer.status}`, !answer.ok);
  await refresh();
}

function lag(backend, operations) {
  const replay = operations.find((o) => o.kind === 'replay' && o.target === backend.name && o.state === 'running');
  if (replay) {
    return replay.total === null ? 'replaying' : `${Math.max(0, replay.total - replay.done)} entries to replay`;
  }
  if (backend.state === 'enabled') {
    return 'in step';
  }
  return backend.lastCheckpoint ? `since ${backend.lastCheckpoint}` : '';
}

function backendRow(vdb, b, operations, dumps, refresh) {
  const path = (action) => vdbPath(vdb, 'backends', b.name, action);
  const actions = [];
  if (b.state === 'enabled') {
    actions.push(button('Disable', () => act(path('disable'), {}, refresh), { class: 'disable' }));
  } else if (b.state === 'disabled') {
    actions.push(button('Enable', () => act(path('enable'), {}, refresh), { class: 'enable' }));
    if (dumps.length > 0) {
      actions.push(button('Restore…', async () => {
        const v = await ask(`Restore ${b.name} from a dump`, [{ name: 'dump', label: 'Dump', options: dumps.map((d) => d.name) }]);
        if (v) {
          await act(path('restore'), v, refresh);
        }
      }, { class: 'restore' }));
    }
  }
  actions.push(button('Backup…', async () => {
    const v = await ask(`Back up ${b.name}`, [{ name: 'as', label: 'Dump name (optional)' }]);
    if (v) {
      await act(path('backup'), v, refresh);
    }
  }, { class: 'backup' }));
  const tables = b.tables.length === 0 ? 'none' : `${b.tables.length}`;
  return el('tr', { class: 'backend', 'data-backend': b.name },
    el('td', {}, el('strong', {}, b.name), el('div', { class: 'url' }, b.url)),
    el('td', { class: `state ${b.state}`, 'data-state': b.state }, b.state),
    el('td', { title: b.tables.join(', ') }, tables,
      b.disabledTables.length ? el('div', { class: 'error' }, `disabled: ${b.disabledTables.join(', ')}`) : null),
    el('td', { class: 'number' }, String(b.pendingRequests)),
    el('td', { class: 'number' }, String(b.requestsServed)),
    el('td', { class: 'lag' }, lag(b, operations)),
    el('td', { class: 'last-error' }, b.disabledReason || ''),
    el('td', {}, el('div', { class: 'actions' }, ...actions)));
}

/** Virtual databases, their backends and the operations on them. */
export async function renderBackends(container, refresh) {
  const [vdbs, ops] = await Promise.all([get('/api/virtualdatabases'), get('/api/operations')]);
  const operations = ops.body.operations;
  const sections = [];
  for (const v of vdbs.body.virtualDatabases) {
    const [backends, dumps] = await Promise.all([get(vdbPath(v.name, 'backends')), get(vdbPath(v.name, 'dumps'))]);
    const dumpList = dumps.ok ? dumps.body.dumps : [];
    const mine = operations.filter((o) => o.virtualDatabase === v.name);
    const vdbActions = el('div', { class: 'actions' },
      button('Checkpoint…', async () => {
        const answer = await ask(`Checkpoint in the recovery log of ${v.name}`, [{ name: 'name', label: 'Name (optional)' }]);
        if (answer) {
          await act(vdbPath(v.name, 'checkpoints'), answer, refresh);
        }
      }, { class: 'checkpoint' }),
      button('Verify', () => act(vdbPath(v.name, 'verify'), {}, refresh), { class: 'verify' }),
      button('Add backend…', async () => {
        const answer = await ask(`Add a backend to ${v.name}`, [
          { name: 'name', label: 'Name', required: true },
          { name: 'url', label: 'JDBC URL', required: true, placeholder: 'jdbc:postgresql://host:5432/db' },
          { name: 'user', label: 'User' },
          { name: 'password', label: 'Password', type: 'password' },
          { name: 'from', label: 'Copy from backend (optional)' },
        ]);
        if (answer) {
          await act(vdbPath(v.name, 'backends'), answer, refresh);
        }
      }, { class: 'add-backend' }));
    sections.push(el('div', { class: 'vdb', 'data-vdb': v.name },
      el('h2', {}, v.name, el('small', {}, ` ${v.level} · ${v.scheduler} scheduler · completion ${v.completion} · reads ${v.readPolicy}`)),
      el('p', { class: 'figures' }, `${v.backendsEnabled} of ${v.backendsTotal} backends enabled · ${v.waitingWrites} writes waiting`),
      vdbActions,
      el('table', { class: 'backends' },
        el('thead', {}, el('tr', {}, ...['Backend', 'State', 'Tables', 'Pending', 'Served', 'Lag', 'Last error', '']
          .map((h) => el('th', {}, h)))),
        el('tbody', {}, ...backends.body.backends.map((b) => backendRow(v.name, b, operations, dumpList, refresh)))),
      el('h3', {}, 'Recent operations'),
      operationsTable(mine.slice(-5))));
  }
  show(container, ...sections);
}

export async function renderOperations(container) {
  const ops = await get('/api/operations');
  show(container, operationsTable(ops.body.operations));
}

function table(headers, rows, attributes = {}) {
  return el('table', attributes,
    el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', {}, h)))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c) => el('td', {}, c === null ? '' : String(c)))))));
}

/** The recovery log of each virtual database: its figures, checkpoints (with their log positions) and dumps. */
export async function renderRecovery(container) {
  const vdbs = await get('/api/virtualdatabases');
  const sections = [el('h2', {}, 'Recovery log')];
  for (const v of vdbs.body.virtualDatabases) {
    const log = v.recoveryLog;
    if (!log) {
      sections.push(el('h3', {}, v.name), el('p', { class: 'hint' }, 'This virtual database runs without a recovery log.'));
      continue;
    }
    const [checkpoints, dumps] = await Promise.all([get(vdbPath(v.name, 'checkpoints')), get(vdbPath(v.name, 'dumps'))]);
    const cps = [...checkpoints.body.checkpoints].sort((a, b) => b.writePosition - a.writePosition);
    sections.push(
      el('h3', {}, v.name),
      table(['Entries written', 'Store commits', 'Entries per commit', 'Bytes per entry', 'Store bytes'],
        [[log.entriesWritten, log.storeCommits, log.entriesPerStoreCommit, log.bytesPerEntry, log.storeBytes]],
        { class: 'figures' }),
      el('h4', {}, `Checkpoints (${cps.length})`),
      table(['Checkpoint', 'Log position', 'Created'], cps.map((c) => [c.name, c.writePosition, c.created]), { class: 'checkpoints' }),
      el('h4', {}, `Dumps (${dumps.body.dumps.length})`),
      table(['Dump', 'Backend', 'Checkpoint', 'Format', 'Bytes', 'Created', 'Path'],
        dumps.body.dumps.map((d) => [d.name, d.backend, d.checkpoint, d.format, d.sizeBytes, d.created, d.path]),
        { class: 'dumps' }));
  }
  show(container, ...sections);
}

/** The controller group of each virtual database, when it has one. */
export async function renderGroup(container) {
  const vdbs = await get('/api/virtualdatabases');
  const sections = [el('h2', {}, 'Controller group')];
  for (const v of vdbs.body.virtualDatabases) {
    const group = await get(vdbPath(v.name, 'controllers'));
    sections.push(el('h3', {}, v.name));
    if (group.status === 404) {
      sections.push(el('p', { class: 'hint' }, `${v.name} has no controller group: this controller serves it alone.`));
      continue;
    }
    const g = group.body;
    sections.push(
      el('p', { class: 'figures' }, `group ${g.group} · view ${g.viewId} · completion ${g.completion}`),
      table(['Controller', 'Backends', 'Delivered', 'Applied', 'Behind', 'Answered'],
        g.members.map((m) => [`${m.name}${m.self ? ' (this one)' : ''}`, m.backends.join(', '), m.delivered, m.applied,
          m.delivered - m.applied, m.answered ? 'yes' : 'no']),
        { class: 'members' }));
  }
  show(container, ...sections);
}
