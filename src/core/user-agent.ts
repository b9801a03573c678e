// A short, human description of a browser's user agent string ("Chrome on Linux"), for the session
// and sign-in lists and the server's new-device notice. Unknown parts are left out.
const browsers: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/HeadlessChrome\//, 'Chrome (headless)'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/node|undici|curl|wget/i, 'Script'],
];
const systems: [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/Android/, 'Android'],
  [/iPhone|iPad|iOS/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function describeAgent(userAgent: string | null | undefined): { browser?: string; system?: string } {
  if (!userAgent) return {};
  return {
    browser: browsers.find(([pattern]) => pattern.test(userAgent))?.[1],
    system: systems.find(([pattern]) => pattern.test(userAgent))?.[1],
  };
}
