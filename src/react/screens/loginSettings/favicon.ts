// The browser tab's icon from the system config's favicon (standalone console only: an embedded
// console never changes its host page's icon).
import { fileUrl } from '../../../core/api/files';

/** Points the page's `<link rel="icon">` at `favicon` (a stored file URL); empty: no icon. */
export function applyFavicon(favicon: string, doc: Document = document): void {
  let link = doc.head.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = doc.createElement('link');
    link.rel = 'icon';
    doc.head.append(link);
  }
  link.href = favicon ? fileUrl(favicon) : 'data:,';
}
