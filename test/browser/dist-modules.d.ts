// The built bundle the tests load (dist/, made by `npm run build`), imported for its side effects
// (defining the elements); some tests import a second copy under another URL.
declare module '*/dist/elements.js';
declare module '*/dist/login.js';
declare module '*?second-copy';
declare module '*?copy=2';
