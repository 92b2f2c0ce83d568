// Long operations (enable's replay, backup, restore, add backend, verify) with their progress bars, from
// GET /api/operations (the admin API's OperationProgress).
import { el } from './dom.js';

/** 0-100, or null while the total is unknown. A finished success is 100 whatever was counted. */
export function percent(op) {
  if (op.state === 'succeeded') {
    return 100;
  }
  if (op.total === null || op.total === undefined || op.total <= 0) {
    return null;
  }
  return Math.min(100, Math.floor((op.done * 100) / op.total));
}

function bar(op) {
  const p = percent(op);
  const fill = el('div', { class: `fill ${op.state}` });
  fill.style.width = `${p === null ? 0 : p}%`;
  return el('div', { class: 'bar', 'data-percent': p === null ? '' : String(p) },
    fill, el('span', { class: 'label' }, p === null ? `${op.done} ${op.unit}` : `${p} %`));
}

function describe(op) {
  const parts = [];
  if (op.total !== null) {
    parts.push(`${op.done} of ${op.total} ${op.unit}`);
  }
  if (op.ratePerSecond !== null) {
    parts.push(`${op.ratePerSecond}/s`);
  }
  if (op.secondsLeft !== null) {
    parts.push(`${op.secondsLeft} s left`);
  }
  return parts.join(', ');
}

/** A table of operations, newest first. */
export function operationsTable(operations) {
  if (operations.length === 0) {
    return el('p', { class: 'hint' }, 'No operation since the controller started.');
  }
  const rows = [...operations].reverse().map((op) => el('tr', {
    class: 'operation', 'data-operation': String(op.id), 'data-kind': op.kind,
    'data-target': op.target, 'data-state': op.state,
  },
  el('td', {}, `#${op.id}`),
  el('td', {}, op.kind),
  el('td', {}, `${op.virtualDatabase}/${op.target}`),
  el('td', { class: 'progress' }, bar(op)),
  el('td', { class: `state ${op.state}` }, op.state),
  el('td', {}, describe(op)),
  el('td', { class: 'message' }, op.message || '')));
  return el('table', { class: 'operations' },
    el('thead', {}, el('tr', {}, ...['', 'Operation', 'On', 'Progress', 'State', '', 'Result'].map((h) => el('th', {}, h)))),
    el('tbody', {}, ...rows));
}
