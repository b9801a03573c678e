// Puts <iam-login auth-mode="token"> on the page with the IAM server's API from `?api=` (an
// http(s) URL; default: this origin's /api) and reports the sign-in.
const status = document.getElementById('status');

/** The API base from the query, when it is an absolute http(s) URL. */
function apiBase() {
  const given = new URLSearchParams(location.search).get('api');
  if (!given) return '/api';
  try {
    const url = new URL(given);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href.replace(/\/$/, '') : '/api';
  } catch {
    return '/api';
  }
}

const login = document.createElement('iam-login');
login.setAttribute('auth-mode', 'token');
login.setAttribute('theme', 'light');
login.setAttribute('api-base', apiBase());
document.getElementById('sign-in').append(login);

login.addEventListener('iam-login-success', (event) => {
  status.textContent = `Signed in as ${event.detail.username}.`;
});
login.addEventListener('iam-error', (event) => {
  status.textContent = `Not signed in: ${event.detail.message}`;
});
