// The admin API as the console calls it: the session cookie goes with every request (same origin), and every
// state-changing request carries the session's CSRF token, which only a page of this console can read.
let csrfToken = null;

function toLogin() {
  location.assign('/console/login');
  return new Promise(() => {}); // the page is going away
}

/** Who is logged in; remembers the session's CSRF token. Goes to the login page without a session. */
export async function session() {
  const answer = await fetch('/console/session');
  if (answer.status === 401) {
    return toLogin();
  }
  const body = await answer.json();
  csrfToken = body.csrfToken;
  return body;
}

async function read(answer) {
  if (answer.status === 401) {
    return toLogin();
  }
  const type = answer.headers.get('Content-Type') || '';
  const body = type.startsWith('application/json') ? await answer.json() : await answer.text();
  return { status: answer.status, ok: answer.ok, body };
}

/** GET an admin API path: {status, ok, body}. */
export async function get(path) {
  return read(await fetch(path, { headers: { Accept: 'application/json' } }));
}

/** POST to an admin API path with its parameters as a JSON object: {status, ok, body}. */
export async function post(path, parameters = {}) {
  return read(await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken },
    body: JSON.stringify(parameters),
  }));
}

export async function logout() {
  await fetch('/console/logout', { method: 'POST', headers: { 'X-CSRF-Token': csrfToken } });
  location.assign('/console/login');
}

/** The path of a virtual database (and backend): names are URL-encoded. */
export function vdbPath(vdb, ...rest) {
  return ['/api/virtualdatabases', vdb, ...rest].map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/');
}
