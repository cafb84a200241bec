// A user's script: plain Node (no tsx, no vitest), the package imported by name through its `exports`
// from the project that installed it. It calls every exported function on the demo snapshot and prints
// what each answered as one JSON object, which test/package.test.ts checks. Run from the folder whose
// node_modules holds the package: node use-package.mjs DEMO OUT
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

const [demoDir, outDir] = process.argv.slice(2);
const pdb = await import('prospectdb');
const server = await import('prospectdb/server');
const kind = (v) =>
  typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v)) ? 'class' : typeof v;
const out = { exports: {}, server: {} };
for (const [name, value] of Object.entries(pdb)) out.exports[name] = kind(value);
for (const [name, value] of Object.entries(server)) out.server[name] = kind(value);

const engine = pdb.openEngine({ clock: () => Date.parse('2026-11-01T12:00:00Z') });
// The packaged demo snapshot, found from the package itself (not from the working directory).
out.demoSnapshot = pdb.DEMO_SNAPSHOT;
out.load = (await engine.load(pdb.DEMO_SNAPSHOT, { strict: true })).issueCount;
out.counts = engine.info().counts;
out.buildIndexes = typeof pdb.buildIndexes(engine);
out.warmEngine = Object.keys(await pdb.warmEngine(engine)).length;

// The expected answers come from the snapshot files themselves, not from the engine.
async function firstRecord(file, wanted) {
  const lines = createInterface({ input: createReadStream(join(demoDir, file)).pipe(createGunzip()) });
  for await (const line of lines) {
    const record = JSON.parse(line);
    if (wanted(record)) {
      lines.close();
      return record;
    }
  }
  throw new Error(`no record in ${file}`);
}
const b = await firstRecord('businesses.jsonl.gz', (r) => typeof r.domain === 'string' && r.domain !== '');
const business = { business_id: b.business_id, name: b.name, domain: b.domain };
const p = await firstRecord('prospects.jsonl.gz', (r) => r.emails?.length > 0);
const prospect = { prospect_id: p.prospect_id, email: p.emails[0].address };
out.business = business;
out.prospect = prospect;

const us = { country_code: { values: ['us'] } };
const page = pdb.fetchProspects(engine, { mode: 'preview', page_size: 5, filters: us }, { version: 2 });
out.fetchProspects = { rows: page.data.length, total: page.total_results };
out.prospectStats = pdb.prospectStats(engine, { filters: us }).total_results;
out.fetchBusinesses = pdb.fetchBusinesses(engine, { mode: 'preview', page_size: 2 }, { version: 2 }).data.length;
out.businessStats = pdb.businessStats(engine, { filters: null }).total_results;
out.autocomplete = pdb
  .autocomplete(engine, { field: 'company_name', query: business.name.slice(0, 4), semantic_search: false })
  .map((i) => i.value);

const rows = [{ domain: business.domain }, { name: 'No Such Company Anywhere Zzqx' }];
out.matchBusinesses = pdb.matchBusinesses(engine, rows).matched_businesses.map((r) => r.business_id);
out.matchBusinessRows = pdb.matchBusinessRows(engine, rows).map((r) => r.business_id);
out.matchBusinessStream = [];
for await (const r of pdb.matchBusinessStream(engine, rows)) out.matchBusinessStream.push(r.business_id);
const people = [{ email: prospect.email }, { email: 'nobody@nowhere.invalid' }];
out.matchProspects = pdb.matchProspects(engine, people).matched_prospects.map((r) => r.prospect_id);
out.matchProspectRows = pdb.matchProspectRows(engine, people).map((r) => r.prospect_id);
out.matchProspectStream = [];
for await (const r of pdb.matchProspectStream(engine, people)) out.matchProspectStream.push(r.prospect_id);
const evaluation = pdb.evaluateMatches(engine, rows, [business.business_id, null]);
out.evaluateMatches = { precision: evaluation.overall.precision, recall: evaluation.overall.recall };

const exported = pdb.exportProspects(engine, { filters: us, mode: 'preview' });
out.exportProspects = exported.total;
const businesses = pdb.exportBusinesses(engine, { mode: 'preview' });
let seen = 0;
for await (const _ of businesses) seen++;
out.exportBusinesses = { total: businesses.total, seen };
const columns = pdb.exportColumns('prospects', 'preview');
out.exportColumns = columns.map((c) => c.name);
const csv = join(outDir, 'us.csv');
out.writeExport = await pdb.writeExport(exported, { format: 'csv', out: csv, columns });
out.csvLines = (await readFile(csv, 'utf8')).trimEnd().split('\r\n').length;
try {
  pdb.exportProspects(engine, { filters: { job_level: { values: 42 } } });
  out.isEngineError = 'no error';
} catch (e) {
  out.isEngineError = { is: pdb.isEngineError(e), status: e.status, instance: e instanceof pdb.EngineError };
}
try {
  pdb.fetchProspects(engine, { mode: 'preview', page_size: 5, filters: { contry_code: { values: ['us'] } } });
  out.misspelledFilter = 'no error';
} catch (e) {
  out.misspelledFilter = e.issues;
}

// prospectdb/server: serve (with the MCP tool server), createHttpServer, mcpHttpHandler.
const running = await server.serve(engine, { port: 0, host: '127.0.0.1', warm: false });
try {
  out.serve = {
    health: (await fetch(`${running.url}/healthcheck/http`)).status,
    mcpMetadata: (await (await fetch(`${running.url}/.well-known/oauth-protected-resource`)).json()).resource,
  };
} finally {
  await running.close();
}
// The package entry's `serve`, for code written before the subpath: loads the server on its first call.
const early = await pdb.serve(engine, { port: 0, host: '127.0.0.1', warm: false, mcp: false });
try {
  out.entryServe = (await fetch(`${early.url}/healthcheck/http`)).status;
} finally {
  await early.close();
}
const plain = server.createHttpServer(engine, { mcp: false });
await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve));
try {
  const res = await fetch(`http://127.0.0.1:${plain.address().port}/version/`);
  out.createHttpServer = res.status;
} finally {
  plain.closeAllConnections();
  await new Promise((resolve) => plain.close(resolve));
}
const mcp = server.mcpHttpHandler(engine);
const host = createServer(async (req, res) => {
  if (!(await mcp(req, res))) res.writeHead(404).end();
});
await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
try {
  const base = `http://127.0.0.1:${host.address().port}`;
  out.mcpHttpHandler = {
    base,
    issuer: (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()).issuer,
    other: (await fetch(`${base}/elsewhere`)).status,
  };
} finally {
  await mcp.close();
  host.closeAllConnections();
  await new Promise((resolve) => host.close(resolve));
}
engine.close();
process.stdout.write(JSON.stringify(out));
