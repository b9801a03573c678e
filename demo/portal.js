// The portal's own navigation drives the embedded console through its `route` attribute and
// follows it through `iam-navigate` (the console may navigate by itself: links, sign-in).
const consoleElement = document.querySelector('iam-console');
const links = [...document.querySelectorAll('nav a[data-route]')];
const title = document.getElementById('portal-title');

/** Marks the portal link of `path` (or of its section) as the current page. */
function markCurrent(path) {
  for (const link of links) {
    const route = link.dataset.route;
    if (path === route || path.startsWith(`${route}/`)) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

for (const link of links) {
  link.addEventListener('click', (event) => {
    // The portal keeps its URL: the console's memory routing does the navigation.
    event.preventDefault();
    consoleElement.setAttribute('route', link.dataset.route);
    markCurrent(link.dataset.route);
  });
}

consoleElement.addEventListener('iam-navigate', (event) => {
  if (event.detail.external) return;
  markCurrent(event.detail.path);
  title.textContent = event.detail.title ?? '';
});

markCurrent(consoleElement.getAttribute('route'));
