/** A progress line on stderr: rows, rows/s and ETA, redrawn in place on a terminal, every 5 s otherwise. */
export interface Progress {
  update(label: string, rows: number, done: number, total: number): void;
  finish(): void;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${seconds.toFixed(0)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}

export function progress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  const started = performance.now();
  let last = 0;
  let drawn = false;
  return {
    update(label, rows, done, total) {
      const now = performance.now();
      if (now - last < (tty ? 200 : 5000)) return;
      last = now;
      const seconds = (now - started) / 1000;
      const rate = rows / Math.max(seconds, 1e-3);
      const fraction = total > 0 ? Math.min(done / total, 1) : 0;
      const eta = fraction > 0 ? (seconds / fraction) * (1 - fraction) : Infinity;
      const line = `${label}: ${rows.toLocaleString('en-US')} rows, ${Math.round(rate).toLocaleString('en-US')} rows/s, ${(fraction * 100).toFixed(0)}%, ETA ${duration(eta)}`;
      if (tty) stream.write(`\r\x1b[2K${line}`);
      else stream.write(line + '\n');
      drawn = true;
    },
    finish() {
      if (tty && drawn) stream.write('\n');
    },
  };
}
