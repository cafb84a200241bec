/**
 * The tool server: an MCP SDK `Server` whose tools run REST routes through the facade, in-process. The
 * low-level `Server` (not `McpServer`) is used on purpose: arguments reach the facade untouched, so the
 * route's own zod schema validates them once and a bad argument comes back as a tool result carrying the
 * REST 422 detail (with the path of the faulty input), never as a protocol error.
 *
 * @example
 * const server = createToolServer(engine, () => ({ kind: 'api_key', apiKey }));
 * await server.connect(new StdioServerTransport());
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine.js';
import type { ValidationIssue } from '../errors.js';
import { handle } from '../facade/handle.js';
import { VERSION } from '../facade/routes/operational.js';
import type { Account, FacadeRequest, FacadeResponse } from '../facade/types.js';
import { inputJsonSchema, TOOLS, TOOLS_BY_NAME, type ToolArgs } from './tools.js';

/** Who the tools act for: an API key checked on every call (stdio), or an account a token proved (HTTP). */
export type Caller =
  { kind: 'api_key'; apiKey: string } | { kind: 'account'; account: Account; keyId: string };

/** One validation problem, located in the tool's arguments. */
export interface ArgumentIssue {
  /** Path inside the arguments, e.g. `["filters", "company_size", "values", 0]`. */
  loc: (string | number)[];
  /** The same path as text: `filters.company_size.values[0]`. */
  path: string;
  msg: string;
  type: string;
}

const INSTRUCTIONS = `prospectdb: B2B business and prospect data. Typical flow: autocomplete to find exact filter values → \
business_stats / prospect_stats to size a query (free) → fetch_businesses / fetch_prospects (credits per record) → \
enrich_* or *_events on the ids you keep. match_* turns names, domains, e-mails into ids. credits_balance shows what is left.`;

let cachedTools: Tool[] | undefined;
/** The tool list as MCP announces it (JSON schemas derived once). */
export function listTools(): Tool[] {
  return (cachedTools ??= TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputJsonSchema(t),
    annotations: { title: t.title, readOnlyHint: t.readOnly, openWorldHint: false },
  })));
}

const pathText = (loc: readonly (string | number)[]) =>
  loc.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${k}` : k), '') ||
  '(arguments)';

/** A REST 422 entry → the same entry located in the tool arguments (`body`/`query` dropped). */
export function argumentIssue(issue: ValidationIssue): ArgumentIssue {
  const loc = issue.loc[0] === 'body' || issue.loc[0] === 'query' ? issue.loc.slice(1) : issue.loc;
  return { loc, path: pathText(loc), msg: issue.msg, type: issue.type };
}

function invalid(issues: ValidationIssue[]): CallToolResult {
  const detail = issues.map(argumentIssue);
  const lines = detail.map((d) => `- ${d.path}: ${d.msg}`);
  return {
    isError: true,
    content: [{ type: 'text', text: `Invalid arguments:\n${lines.join('\n')}` }],
    structuredContent: { status: 422, detail },
  };
}

function failed(res: FacadeResponse): CallToolResult {
  const body = res.body as { details?: unknown; message?: unknown } | null;
  const message =
    typeof body?.details === 'string' ? body.details : typeof body?.message === 'string' ? body.message : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `Error ${res.status}${message ? `: ${message}` : ''}` }],
    structuredContent: { status: res.status, error: res.body },
  };
}

function run(engine: Engine, caller: Caller, request: FacadeRequest): Promise<FacadeResponse> {
  if (caller.kind === 'api_key') {
    return handle(engine, { ...request, headers: { ...request.headers, api_key: caller.apiKey } });
  }
  return handle(engine, request, { account: caller.account, keyId: caller.keyId });
}

/**
 * Runs one tool for a caller. Never throws for bad arguments or failed routes: those are tool results
 * with `isError` (422 detail located in the arguments, or the REST status and message).
 */
export async function callTool(
  engine: Engine,
  caller: Caller,
  name: string,
  args: unknown,
): Promise<CallToolResult> {
  const tool = TOOLS_BY_NAME.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const argObject: ToolArgs =
    args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as ToolArgs) : ({} as ToolArgs);
  const built = tool.request(argObject);
  if (!built.ok) return invalid(built.issues);
  const res = await run(engine, caller, built.request);
  if (res.status === 422) {
    const detail = (res.body as { detail?: ValidationIssue[] } | null)?.detail;
    return invalid(Array.isArray(detail) ? detail : []);
  }
  if (res.status < 200 || res.status >= 300) return failed(res);
  const structured =
    res.body !== null && typeof res.body === 'object' && !Array.isArray(res.body)
      ? (res.body as Record<string, unknown>)
      : { items: res.body };
  return {
    content: [
      { type: 'text', text: tool.summary(res.body) },
      { type: 'text', text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  };
}

/** The caller of a request: from the transport's auth (HTTP) or fixed (stdio); null refuses the call. */
export type CallerOf = (authInfo: AuthInfo | undefined) => Caller | null;

/** An MCP server exposing the tools; connect it to a stdio or streamable HTTP transport. */
export function createToolServer(engine: Engine, callerOf: CallerOf): Server {
  const server = new Server(
    { name: 'prospectdb', title: 'prospectdb', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const caller = callerOf(extra.authInfo);
    if (!caller) throw new McpError(ErrorCode.InvalidRequest, 'Not authenticated');
    return callTool(engine, caller, request.params.name, request.params.arguments);
  });
  return server;
}

/** The caller an HTTP request's verified token stands for (`extra` set by the OAuth check). */
export const callerFromToken: CallerOf = (authInfo) => {
  const extra = authInfo?.extra as { account?: Account; keyId?: string } | undefined;
  return extra?.account && extra.keyId
    ? { kind: 'account', account: extra.account, keyId: extra.keyId }
    : null;
};
