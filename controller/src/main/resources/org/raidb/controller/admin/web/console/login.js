// The login page: posts the user and password, and on success goes to the console (the session cookie is set by
// the answer; scripts cannot read it).
const form = document.getElementById('login-form');
const error = document.getElementById('login-error');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const answer = await fetch('/console/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      user: document.getElementById('user').value,
      password: document.getElementById('password').value,
    }),
  });
  if (answer.ok) {
    location.assign('/console/');
    return;
  }
  const body = await answer.json().catch(() => ({ error: `HTTP ${answer.status}` }));
  error.textContent = body.error;
});
