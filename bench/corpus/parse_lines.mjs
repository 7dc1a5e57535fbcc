// The floor a Node checker starts from: every line of every file through `JSON.parse`, nothing
// checked. Files (`.jsonl`, `.jsonl.gz` decompressed whole) are read one at a time.
//   node bench/corpus/parse_lines.mjs FILE...   → one JSON line: {bytes, lines, bad, wall_s, cpu_s}
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const start = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
let bytes = 0, lines = 0, bad = 0;
for (const file of process.argv.slice(2)) {
  let buf = readFileSync(file);
  if (file.endsWith('.gz')) buf = gunzipSync(buf);
  bytes += buf.length;
  for (const line of buf.toString('utf8').split('\n')) {
    if (line === '') continue;
    lines++;
    try { JSON.parse(line); } catch { bad++; }
  }
}
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({
  bytes, lines, bad,
  wall_s: Number(process.hrtime.bigint() - start) / 1e9,
  cpu_s: (cpu.user + cpu.system) / 1e6,
}));
