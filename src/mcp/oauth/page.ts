/**
 * The sign-in page where a human approves a tool-server connection with their account's API key. The
 * form carries only the opaque id of the pending request (its parameters stay server-side), so nothing
 * the browser sends can change the client, redirect URI or PKCE challenge being approved.
 */
import type { ServerResponse } from 'node:http';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';

/** Path the form posts to. */
export const APPROVE_PATH = '/oauth/approve';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
input{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}button{padding:.5rem 1rem;font:inherit;margin-right:.5rem}
.error{color:#a00}</style></head>
<body>${body}</body></html>`;
}

export interface ApprovalPage {
  requestId: string;
  client: OAuthClientInformationFull | null;
  /** Where the code of this request will be sent: the page names its host. */
  redirectUri: string;
  error?: string;
}

/** Writes the sign-in form (200, or 401 when a key was refused). */
export function renderApprovalPage(res: ServerResponse, view: ApprovalPage): void {
  const name = view.client?.client_name ?? view.client?.client_id ?? 'An application';
  // The host the code goes to, from the pending request: a client may register several redirect URIs,
  // and a loopback one with any port (RFC 8252), so the first registered URI may not be this one.
  const host = URL.canParse(view.redirectUri) ? new URL(view.redirectUri).host : '';
  const body = `
<h1>Connect ${escape(name)} to prospectdb</h1>
<p><strong>${escape(name)}</strong>${host ? ` (returning to <code>${escape(host)}</code>)` : ''} asks to use the
prospectdb tools on behalf of your account. Its calls spend your account's credits, exactly as API calls do.
Sign in with one of your account's API keys to approve; revoking that key, or disconnecting the client, ends
its access at once.</p>
${view.error ? `<p class="error" role="alert">${escape(view.error)}</p>` : ''}
<form method="post" action="${APPROVE_PATH}">
<input type="hidden" name="request" value="${escape(view.requestId)}">
<label for="api_key">API key</label>
<p><input id="api_key" name="api_key" type="password" autocomplete="off" spellcheck="false" placeholder="pdb_…"></p>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>`;
  res.writeHead(view.error ? 401 : 200, HEADERS);
  res.end(page(`Connect ${name}`, body));
}

/** Writes a page that ends the flow without a redirect (expired or unknown request). */
export function renderMessagePage(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, HEADERS);
  res.end(page('prospectdb', `<h1>prospectdb</h1><p class="error">${escape(message)}</p>`));
}
