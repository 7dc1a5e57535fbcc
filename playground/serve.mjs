// Serves playground/dist/ on 127.0.0.1 with Node's http module (no server dependency): the
// command behind `./scripts/playground.sh`, and the server the page test drives Chromium against.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize, extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.png': 'image/png' };

/** Starts a server for `dir` on 127.0.0.1:`port` (0: any free port); resolves to the server. */
export async function serve(dir, port = 0) {
  const root = normalize(dir);
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://127.0.0.1');
    const path = normalize(join(root, decodeURIComponent(pathname === '/' ? '/index.html' : pathname)));
    if (!path.startsWith(root)) {
      res.statusCode = 403;
      res.end();
      return;
    }
    try {
      const body = await readFile(path);
      res.setHeader('content-type', TYPES[extname(path)] || 'application/octet-stream');
      res.setHeader('cache-control', 'no-store');
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT || 8765);
  const server = await serve(fileURLToPath(new URL('./dist/', import.meta.url)), port);
  console.log(`playground: http://127.0.0.1:${server.address().port}/`);
}
