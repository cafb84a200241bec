/**
 * A headless Chromium for tests, from the npm registry alone: `@sparticuz/chromium` ships the browser
 * (brotli-compressed, with its fonts) inside its package and unpacks it into the temporary folder on
 * first use (~10 s, then reused); `puppeteer-core` drives it. Nothing is downloaded at install or run
 * time, so `npm ci` on a fresh machine is enough. The unpacked browser is a cache shared by every run:
 * it goes to a folder per user in the system temp folder, not to the test file's own (which must be
 * empty when it ends).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';

/** Launches the packaged Chromium headless (unpacking it first when needed). */
export async function launchBrowser(): Promise<Browser> {
  chromium.setGraphicsMode = false; // no WebGL needed: skips unpacking SwiftShader
  // One folder per user: a browser another user unpacked cannot be run (EACCES).
  const cache = join(
    process.env.PROSPECTDB_SYSTEM_TMPDIR ?? tmpdir(),
    `prospectdb-browser-${process.getuid?.() ?? 0}`,
  );
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const own = process.env.TMPDIR;
  process.env.TMPDIR = cache; // where the package unpacks (it reads os.tmpdir())
  let executablePath: string;
  try {
    executablePath = await chromium.executablePath();
  } finally {
    if (own === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = own;
  }
  // The packaged fonts, so text is measured the same on every machine, fonts installed or not. The
  // package's own fonts.conf names the folders it unpacks to on AWS Lambda (/tmp/fonts, /opt/fonts…),
  // not this cache: pointed at it, fontconfig found no font on a fresh machine and every label of the
  // charts measured 0×0. A config of our own names the folder the fonts are in.
  const env = { ...process.env };
  const fonts = join(cache, 'fonts');
  if (existsSync(fonts)) {
    const config = join(cache, 'fontconfig');
    mkdirSync(config, { recursive: true });
    writeFileSync(
      join(config, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
        `  <dir>${fonts}</dir>\n  <cachedir>${join(cache, 'fontconfig-cache')}</cachedir>\n</fontconfig>\n`,
    );
    env.FONTCONFIG_PATH = config;
    delete env.FONTCONFIG_FILE;
  }
  return puppeteer.launch({
    executablePath,
    args: chromium.args,
    headless: true,
    env,
    timeout: 60_000,
    protocolTimeout: 60_000,
  });
}
