import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BENCHMARKS = path.resolve(import.meta.dirname, '../docs/benchmarks.md');

/** One line naming the machine and the date, written next to every table. */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memory = Math.round(os.totalmem() / 2 ** 30);
  const date = new Date().toISOString().slice(0, 10);
  return `Measured ${date} on ${os.cpus().length} × ${cpu}, ${memory} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}.`;
}

/** Replaces the section between `<!-- name:start -->` and `<!-- name:end -->` in docs/benchmarks.md, or appends it. */
export function writeSection(name: string, markdown: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const current = fs.existsSync(BENCHMARKS) ? fs.readFileSync(BENCHMARKS, 'utf8') : '# Benchmarks\n';
  const pattern = new RegExp(`${escape(start)}[\\s\\S]*?${escape(end)}`);
  const next = pattern.test(current) ? current.replace(pattern, block) : `${current.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(BENCHMARKS, next);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
