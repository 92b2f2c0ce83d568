// Live charts of the controller's own request counters: /metrics (Prometheus text) is read every few seconds,
// and the differences between two readings of raidb_requests_seconds_count and _sum give requests per second
// and their mean latency. Drawn on a canvas: no chart library, nothing fetched from elsewhere.
import { get } from './api.js';

const POINTS = 90;
const SERIES = ['read', 'write', 'other'];
const COLOURS = { read: '#1f77b4', write: '#d62728', other: '#7f7f7f' };

const history = [];
let previous = null;

function seriesOf(kind) {
  return kind === 'read' || kind === 'write' ? kind : 'other';
}

/** {read: {count, sum}, write: ..., other: ...} over every virtual database and outcome. */
export function parseRequestCounters(text) {
  const totals = Object.fromEntries(SERIES.map((s) => [s, { count: 0, sum: 0 }]));
  const line = /^raidb_requests_seconds_(count|sum)\{([^}]*)\}\s+(\S+)/;
  for (const row of text.split('\n')) {
    const m = line.exec(row);
    if (!m) {
      continue;
    }
    const kind = /kind="([^"]*)"/.exec(m[2]);
    const series = seriesOf(kind ? kind[1] : '');
    totals[series][m[1]] += Number(m[3]);
  }
  return totals;
}

/** Takes one reading; after the first, adds a point to the history. */
export async function sample() {
  const answer = await get('/metrics');
  if (!answer.ok) {
    return;
  }
  const now = performance.now();
  const totals = parseRequestCounters(answer.body);
  if (previous) {
    const seconds = (now - previous.at) / 1000;
    const point = { throughput: {}, latency: {} };
    for (const s of SERIES) {
      const count = totals[s].count - previous.totals[s].count;
      const sum = totals[s].sum - previous.totals[s].sum;
      point.throughput[s] = seconds > 0 ? count / seconds : 0;
      point.latency[s] = count > 0 ? (sum * 1000) / count : null;
    }
    history.push(point);
    if (history.length > POINTS) {
      history.shift();
    }
  }
  previous = { at: now, totals };
}

function niceMax(value) {
  if (value <= 0) {
    return 1;
  }
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (value <= step * power) {
      return step * power;
    }
  }
  return 10 * power;
}

function draw(canvas, field, unit) {
  const g = canvas.getContext('2d');
  const { width, height } = canvas;
  const left = 60;
  const bottom = height - 20;
  g.clearRect(0, 0, width, height);
  g.font = '12px sans-serif';
  let max = 0;
  for (const p of history) {
    for (const s of SERIES) {
      max = Math.max(max, p[field][s] || 0);
    }
  }
  max = niceMax(max);
  g.strokeStyle = '#ddd';
  g.fillStyle = '#555';
  for (let i = 0; i <= 4; i++) {
    const y = bottom - ((bottom - 10) * i) / 4;
    g.beginPath();
    g.moveTo(left, y);
    g.lineTo(width - 10, y);
    g.stroke();
    const label = (max * i) / 4;
    g.fillText(`${Number.isInteger(label) ? label : label.toFixed(2)} ${unit}`, 4, y + 4);
  }
  g.fillText(`last ${POINTS * 2} s`, width - 80, height - 4);
  const x = (i) => left + ((width - 10 - left) * i) / (POINTS - 1);
  for (const s of SERIES) {
    g.strokeStyle = COLOURS[s];
    g.lineWidth = 2;
    g.beginPath();
    let started = false;
    history.forEach((p, i) => {
      const v = p[field][s];
      if (v === null || v === undefined) {
        started = false;
        return;
      }
      const y = bottom - ((bottom - 10) * v) / max;
      const xi = x(i + POINTS - history.length);
      if (started) {
        g.lineTo(xi, y);
      } else {
        g.moveTo(xi, y);
        started = true;
      }
    });
    g.stroke();
  }
}

export function drawCharts() {
  draw(document.getElementById('chart-throughput'), 'throughput', '/s');
  draw(document.getElementById('chart-latency'), 'latency', 'ms');
  const last = history[history.length - 1];
  const legend = document.getElementById('chart-legend');
  legend.dataset.points = String(history.length);
  legend.replaceChildren(...SERIES.map((s) => {
    const item = document.createElement('span');
    item.className = `series ${s}`;
    const rate = last ? last.throughput[s].toFixed(1) : '–';
    const latency = last && last.latency[s] !== null ? last.latency[s].toFixed(2) : '–';
    item.textContent = `${s}: ${rate}/s, ${latency} ms`;
    return item;
  }));
}
