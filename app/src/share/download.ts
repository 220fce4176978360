// Save a file from the page (a Blob URL on a temporary <a download>), and
// read one the user picked. Nothing here touches innerHTML.

export function downloadBlob(blob: Blob, filename: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  doc.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadText(text: string, filename: string, type: string): void {
  downloadBlob(new Blob([text], { type }), filename);
}

/** A file name stem for a run: sawtooth-reno-rtt30-seed1. */
export function fileStem(parts: { algorithms: string[]; rttMs: number; seed: number }): string {
  const algs = [...new Set(parts.algorithms)].join('+').replace(/[^A-Za-z0-9_.+-]/g, '_').slice(0, 60);
  return `sawtooth-${algs || 'run'}-rtt${parts.rttMs}-seed${parts.seed}`.replace(/[^A-Za-z0-9_.+-]/g, '_');
}
