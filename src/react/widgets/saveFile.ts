// Hands a file made or fetched by the page to the browser as a download.

/** Saves `file` under the name `name` (a click on a link to an object URL). */
export function saveFile(file: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}
