// A link to a file of the API (a CSV export). A click fetches the file through the HTTP client, so
// it goes with the session in either mode (a plain link cannot carry token mode's header) and a
// refusal is reported as any call's (a toast, or the sign-in page) instead of being saved as the
// file. The address stays the link's, for what a browser does with links.
import type { MouseEvent, ReactNode } from 'react';
import { saveFile } from '../saveFile';
import * as ui from '../ui.css';

export function DownloadLink({ href, fileName, fetchFile, children }: { href: string; fileName: string; fetchFile: () => Promise<Blob>; children: ReactNode }) {
  const download = (event: MouseEvent) => {
    event.preventDefault();
    // A failure was reported by the HTTP client already.
    fetchFile().then(
      (file) => saveFile(file, fileName),
      () => undefined,
    );
  };
  return (
    <a className={ui.button.secondary} href={href} download={fileName} onClick={download}>
      {children}
    </a>
  );
}
