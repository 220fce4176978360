// A tiny static file server for e2e tests of the built site under a sub-path
// (as a course web space or GitHub Pages would host it). Loopback only.

import { createServer, type Server } from 'node:http';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

export interface StaticSite {
  /** e.g. http://127.0.0.1:41234/courses/tcp/ */
  url: string;
  /** Paths requested so far (for checks that nothing escapes the sub-path). */
  requests: string[];
  close(): Promise<void>;
}

/** The build directory the e2e tests use (SAWTOOTH_DIST, default dist/). */
export function distDir(): string {
  return resolve(process.env.SAWTOOTH_DIST ?? 'dist');
}

/** Copy the build to a temporary root under `subPath` and serve it. */
export async function serveUnderSubPath(subPath = '/courses/tcp/sawtooth/'): Promise<StaticSite> {
  const dist = distDir();
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`no build at ${dist} (run vite build)`);
  const root = mkdtempSync(join(tmpdir(), 'sawtooth-site-'));
  cpSync(dist, join(root, ...subPath.split('/').filter(Boolean)), { recursive: true });
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (req.method !== 'GET' || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}${subPath}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(root, { recursive: true, force: true });
          r();
        });
      }),
  };
}
