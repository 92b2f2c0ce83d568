// The console's main page: who is logged in, the view chosen in the menu (the URL's #fragment), redrawn from the
// admin API every 2 s, and the charts' sampling, which goes on whatever the view.
import { session, logout } from './api.js';
import { renderBackends, renderOperations, renderRecovery, renderGroup, reportTo } from './views.js';
import { sample, drawCharts } from './charts.js';

const REFRESH_MILLIS = 2000;
const renderers = {
  backends: renderBackends,
  charts: async () => drawCharts(),
  operations: (section) => renderOperations(section.querySelector('#operations-all')),
  recovery: renderRecovery,
  group: renderGroup,
};

function currentView() {
  const name = location.hash.replace('#', '');
  return renderers[name] ? name : 'backends';
}

function say(text, isError = false) {
  const line = document.getElementById('message');
  line.textContent = text;
  line.className = isError ? 'error' : 'ok';
}

async function refresh() {
  const name = currentView();
  for (const section of document.querySelectorAll('.view')) {
    section.hidden = section.id !== `view-${name}`;
  }
  for (const link of document.querySelectorAll('nav a')) {
    link.classList.toggle('current', link.dataset.view === name);
  }
  try {
    await renderers[name](document.getElementById(`view-${name}`), refresh);
    document.body.dataset.rendered = name;
  } catch (e) {
    say(`could not read the admin API: ${e.message}`, true);
  }
}

async function tick() {
  try {
    await sample();
  } catch (e) {
    // the next tick tries again; the view's own refresh reports an unreachable controller
  }
  await refresh();
  setTimeout(tick, REFRESH_MILLIS);
}

const me = await session();
document.getElementById('user').textContent = me.user;
document.getElementById('logout').addEventListener('click', logout);
window.addEventListener('hashchange', refresh);
reportTo(say);
tick();
