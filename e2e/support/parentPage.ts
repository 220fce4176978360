// A page on another origin (another port on this machine) that holds
// whatever HTML a test gives it: a slide deck with an embed, or a blank page
// to check a downloaded file without the app's Content-Security-Policy.

import { createServer, type Server } from 'node:http';

export interface ParentPage {
  origin: string;
  /** Serve `html` at `${origin}/page.html` (the next request gets it). */
  set(html: string): string;
  close(): Promise<void>;
}

export async function startParentPage(): Promise<ParentPage> {
  let html = '<!doctype html><title>blank</title>';
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  const origin = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  return {
    origin,
    set(next) {
      html = next;
      return `${origin}/page.html`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
