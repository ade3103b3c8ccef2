/**
 * Flag images from country-flag-icons, emitted by Vite as files of our own origin (the CSP allows
 * nothing else). Only URLs are in the JavaScript; each SVG loads when it is shown.
 */
const files = import.meta.glob<string>('../../../../../node_modules/country-flag-icons/3x2/*.svg', {
  query: '?url',
  import: 'default',
  eager: true,
});

const byIso = new Map<string, string>();
for (const [path, url] of Object.entries(files)) {
  const iso = /([A-Z]{2})\.svg$/.exec(path)?.[1];
  if (iso) byIso.set(iso, url);
}

export function flagUrl(iso: string): string | undefined {
  return byIso.get(iso.toUpperCase());
}
