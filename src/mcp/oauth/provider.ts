/**
 * The tool server's OAuth 2.0 authorization server, as an `OAuthServerProvider` of the MCP SDK: the SDK's
 * handlers parse the protocol (authorize, token with PKCE verification, registration, revocation) and
 * this provider holds the state. Access tokens are short-lived JWTs signed with jose; refresh tokens,
 * codes and pending requests are opaque random strings. Every one of them is stored only as a SHA-256
 * hash, bound to a grant, and a grant is bound to the API key that approved it: revoking the grant
 * (revocation endpoint) or the key ends access at the next request. Time comes from `engine.now()`.
 *
 * Everything lives in the state store (`engine.state`), signing keys included, so any process sharing
 * it (another worker, another machine on the same PostgreSQL) accepts the tokens another issued. Each
 * single-use secret is consumed by one guarded statement inside a transaction (`DELETE … RETURNING` for
 * a pending request, `UPDATE … WHERE used_at IS NULL` for a code, `… WHERE revoked_at IS NULL` for a
 * refresh token): of two concurrent redemptions, on one node or two, exactly one changes the row.
 *
 * Every grant is bound to this server's canonical resource URL (RFC 8707, e.g. `https://data.example.com/mcp`):
 * a `resource` naming anything else is refused with `invalid_target` at authorize and token time, the access
 * token's audience is that URL, and `/mcp` accepts only tokens whose audience is its own URL.
 *
 * Over 400 lines on purpose: one `OAuthServerProvider` (the SDK's interface) whose methods share the
 * grant and token bookkeeping; split, each part would reach into the others' tables.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { authenticate, getAccount } from '../../account/accounts.js';
import type { Engine } from '../../engine.js';
import type { Account } from '../../facade/types.js';
import { renderApprovalPage } from './page.js';
import { OAUTH_SQL as SQL } from '../../store/sql/oauth.js';
import {
  keyActive,
  newSecret,
  secretHash,
  signingKeys,
  type CodeRow,
  type GrantRow,
  type RequestRow,
  type TokenRow,
} from './store.js';

/** The one scope: use the tools on behalf of the approving account. */
export const MCP_SCOPE = 'prospectdb';
export const SCOPES_SUPPORTED = [MCP_SCOPE];
/** Path of the protected resource (the streamable HTTP endpoint). */
export const RESOURCE_PATH = '/mcp';

export interface TokenLifetimes {
  /** Seconds; default 900 (15 minutes). */
  accessTokenSeconds?: number;
  /** Seconds; default 30 days. */
  refreshTokenSeconds?: number;
  /** Seconds; default 300. */
  codeSeconds?: number;
  /** Seconds a sign-in page stays valid; default 600. */
  requestSeconds?: number;
}

const JWT_ISSUER = 'prospectdb';
const DAY_MS = 24 * 3600 * 1000;
const JWT_TYPE = 'at+jwt';

export interface OAuthProviderOptions extends TokenLifetimes {
  /**
   * The canonical URL of the protected resource for the request being served (`<origin>/mcp`): fixed by
   * the public URL, or derived from the Host header of a local server.
   */
  resourceUrl: () => string;
}

/** Outcome of checking a bearer token. */
export type TokenCheck =
  | { ok: true; auth: AuthInfo; account: Account; keyId: string; grantId: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'revoked' | 'unknown' | 'audience' };

/** Outcome of the sign-in form. */
export type Approval =
  | { ok: true; redirect: string }
  | { ok: false; reason: 'expired_request' }
  | {
      ok: false;
      reason: 'bad_key';
      requestId: string;
      client: OAuthClientInformationFull | null;
      redirectUri: string;
    };

export interface ProspectOAuthProvider extends OAuthServerProvider {
  /** The canonical resource URL tokens are bound to, for the request being served. */
  resourceUrl(): string;
  /** Checks a bearer token: signature and expiry (jose), then its grant, key and account (the state). */
  check(token: string | undefined): Promise<TokenCheck>;
  /** Handles the sign-in form: approves with an API key, or denies. */
  decide(requestId: string, decision: 'approve' | 'deny', apiKey: string | undefined): Promise<Approval>;
}

/** Registered clients, in the state. Dynamic registration makes public clients (PKCE, no secret). */
function clientsStore(engine: Engine): OAuthRegisteredClientsStore {
  const state = engine.state;
  return {
    async getClient(clientId) {
      const row = await state.get<{ metadata: string }>(SQL.clientById, [clientId]);
      return row === undefined ? undefined : (JSON.parse(row.metadata) as OAuthClientInformationFull);
    },
    async registerClient(client) {
      // RFC 7591 §3.2.1 lets the server replace requested metadata: every client is public and proves
      // possession with PKCE, so no client secret exists to be stored or leaked.
      const { client_secret: _secret, client_secret_expires_at: _expires, ...rest } = client;
      const registered = { ...rest, token_endpoint_auth_method: 'none' } as OAuthClientInformationFull;
      await state.run(SQL.insertClient, [registered.client_id, JSON.stringify(registered), engine.now()]);
      return registered;
    },
  };
}

function grantedScopes(requested: readonly string[] | undefined, ceiling: readonly string[]): string[] {
  if (!requested || requested.length === 0) return [...ceiling];
  const unknown = requested.filter((s) => !ceiling.includes(s));
  if (unknown.length > 0) throw new InvalidScopeError(`Unsupported scope: ${unknown.join(' ')}`);
  return [...new Set(requested)];
}

/**
 * A `resource` parameter in the canonical form RFC 8707 and the MCP authorization spec compare: origin
 * (scheme and host lower-cased, default port dropped) and path without a trailing slash; a query or a
 * fragment makes it another resource.
 */
export function canonicalResource(resource: URL): string {
  const path = resource.pathname.replace(/\/+$/, '');
  return `${resource.origin}${path}${resource.search}${resource.hash}`;
}

/** Refuses a `resource` that is not this server's (RFC 8707 §2: `invalid_target`). */
function checkResource(resource: URL | undefined, canonical: string): void {
  if (resource && canonicalResource(resource) !== canonical) {
    throw new InvalidTargetError(`Unknown resource ${resource.href}; this server's resource is ${canonical}`);
  }
}

/** Builds the provider over an engine's state store. */
export function createOAuthProvider(engine: Engine, lifetimes: OAuthProviderOptions): ProspectOAuthProvider {
  const state = engine.state;
  const accessSeconds = lifetimes.accessTokenSeconds ?? 900;
  const refreshSeconds = lifetimes.refreshTokenSeconds ?? 30 * 24 * 3600;
  const codeSeconds = lifetimes.codeSeconds ?? 300;
  const requestSeconds = lifetimes.requestSeconds ?? 600;
  const store = clientsStore(engine);
  const keys = signingKeys(state, () => engine.now());

  const grant = (grantId: string) => state.get<GrantRow>(SQL.grantById, [grantId]);
  const revokeGrant = (grantId: string) =>
    state.transaction(async () => {
      const now = engine.now();
      await state.run(SQL.revokeGrant, [now, grantId]);
      await state.run(SQL.revokeGrantTokens, [now, grantId]);
    });
  const grantUsable = async (g: GrantRow, clientId: string): Promise<boolean> =>
    g.client_id === clientId && g.revoked_at === null && (await keyActive(state, g.key_id));
  /** A grant is redeemed only at the resource it was approved for (grants made before binding have none). */
  const sameResource = (g: GrantRow, canonical: string) => {
    if (g.resource !== canonical)
      throw new InvalidTargetError(`This authorization was granted for another resource than ${canonical}`);
  };

  /** Signs an access token and makes a refresh token; the caller stores both hashes. */
  async function mint(
    g: GrantRow & { resource: string },
  ): Promise<{ tokens: OAuthTokens; rows: [string, 'access' | 'refresh', number][] }> {
    const now = engine.now();
    const iat = Math.floor(now / 1000);
    const { kid, secret: bytes } = await keys.current();
    const access = await new SignJWT({ scope: g.scopes, client_id: g.client_id, gid: g.grant_id })
      .setProtectedHeader({ alg: 'HS256', kid, typ: JWT_TYPE })
      .setIssuer(JWT_ISSUER)
      .setAudience(g.resource)
      .setSubject(g.account_id)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + accessSeconds)
      .sign(bytes);
    const refresh = newSecret();
    return {
      tokens: {
        access_token: access,
        token_type: 'Bearer',
        expires_in: accessSeconds,
        refresh_token: refresh,
        scope: g.scopes,
      },
      rows: [
        [access, 'access', (iat + accessSeconds) * 1000],
        [refresh, 'refresh', now + refreshSeconds * 1000],
      ],
    };
  }

  async function persist(rows: [string, 'access' | 'refresh', number][], grantId: string): Promise<void> {
    await state.run(SQL.purgeTokens, [engine.now() - DAY_MS]);
    for (const [token, kind, expires] of rows)
      await state.run(SQL.insertToken, [secretHash(token), kind, grantId, expires]);
  }

  /**
   * Runs `consume` (the one guarded write that uses up a code or a refresh token) and stores the new
   * tokens in one transaction. When the guard changes nothing, another redemption won (a replay, or a
   * concurrent one on this node or another): like a replay it ends the grant (RFC 6749 §4.1.2, §10.4),
   * after the winner's transaction, so its tokens end too.
   */
  async function redeem(
    consume: () => Promise<number>,
    minted: Awaited<ReturnType<typeof mint>>,
    grantId: string,
    used: string,
  ): Promise<OAuthTokens> {
    const won = await state.transaction(async () => {
      if ((await consume()) !== 1) return false;
      await persist(minted.rows, grantId);
      return true;
    });
    if (!won) {
      await revokeGrant(grantId);
      throw new InvalidGrantError(used);
    }
    return minted.tokens;
  }

  const provider: ProspectOAuthProvider = {
    get clientsStore() {
      return store;
    },

    resourceUrl: () => lifetimes.resourceUrl(),

    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: ServerResponse) {
      const canonical = lifetimes.resourceUrl();
      checkResource(params.resource, canonical);
      const scopes = grantedScopes(params.scopes, SCOPES_SUPPORTED);
      const requestId = newSecret();
      const now = engine.now();
      await state.run(SQL.purgeRequests, [now]);
      await state.run(SQL.insertRequest, [
        secretHash(requestId),
        client.client_id,
        params.redirectUri,
        params.codeChallenge,
        params.state ?? null,
        scopes.join(' '),
        // Without a `resource` parameter the grant is still bound: to the only resource there is.
        canonical,
        now + requestSeconds * 1000,
      ]);
      renderApprovalPage(res, { requestId, client, redirectUri: params.redirectUri });
    },

    async decide(requestId, decision, apiKey) {
      const hash = secretHash(requestId);
      const live = (r: RequestRow | undefined): r is RequestRow =>
        r !== undefined && r.expires_at >= engine.now();
      const req = await state.get<RequestRow>(SQL.requestByHash, [hash]);
      if (!live(req)) return { ok: false, reason: 'expired_request' };
      // A refused key leaves the request pending, so the person can try another key.
      const auth = decision === 'approve' ? await authenticate(engine, apiKey?.trim()) : undefined;
      if (auth && !auth.ok)
        return {
          ok: false,
          reason: 'bad_key',
          requestId,
          client: ((await store.getClient(req.client_id)) ?? null) as OAuthClientInformationFull | null,
          redirectUri: req.redirect_uri,
        };
      return state.transaction(async (): Promise<Approval> => {
        // Taken by one statement: a second submission of the same form (on any node) finds nothing.
        const taken = await state.get<RequestRow>(SQL.takeRequest, [hash]);
        if (!live(taken)) return { ok: false, reason: 'expired_request' };
        const redirect = new URL(taken.redirect_uri);
        if (taken.state !== null) redirect.searchParams.set('state', taken.state);
        if (!auth) {
          redirect.searchParams.set('error', 'access_denied');
          redirect.searchParams.set('error_description', 'The account holder denied the connection');
          return { ok: true, redirect: redirect.href };
        }
        const now = engine.now();
        const grantId = `grt_${randomBytes(12).toString('hex')}`;
        await state.run(SQL.insertGrant, [
          grantId,
          taken.client_id,
          auth.account.account_id,
          auth.keyId,
          taken.scopes,
          taken.resource,
          now,
        ]);
        await state.run(SQL.purgeCodes, [now - DAY_MS]);
        const code = newSecret();
        await state.run(SQL.insertCode, [
          secretHash(code),
          grantId,
          taken.redirect_uri,
          taken.code_challenge,
          now + codeSeconds * 1000,
        ]);
        redirect.searchParams.set('code', code);
        return { ok: true, redirect: redirect.href };
      });
    },

    async challengeForAuthorizationCode(client, authorizationCode) {
      const row = await state.get<CodeRow>(SQL.codeByHash, [secretHash(authorizationCode)]);
      if (!row || (await grant(row.grant_id))?.client_id !== client.client_id) {
        throw new InvalidGrantError('Invalid authorization code');
      }
      return row.code_challenge;
    },

    async exchangeAuthorizationCode(client, authorizationCode, _verifier, redirectUri, resource) {
      const canonical = lifetimes.resourceUrl();
      checkResource(resource, canonical);
      const hash = secretHash(authorizationCode);
      const row = await state.get<CodeRow>(SQL.codeByHash, [hash]);
      const g = row ? await grant(row.grant_id) : undefined;
      if (!row || !g || g.client_id !== client.client_id)
        throw new InvalidGrantError('Invalid authorization code');
      if (row.used_at !== null) {
        // A replayed code may be stolen: end everything issued from it (RFC 6749 §4.1.2).
        await revokeGrant(g.grant_id);
        throw new InvalidGrantError('Authorization code already used');
      }
      if (row.expires_at < engine.now()) throw new InvalidGrantError('Authorization code expired');
      if (redirectUri !== undefined && redirectUri !== row.redirect_uri) {
        throw new InvalidGrantError('redirect_uri does not match the authorization request');
      }
      if (!(await grantUsable(g, client.client_id))) throw new InvalidGrantError('The approval was revoked');
      sameResource(g, canonical);
      const minted = await mint({ ...g, resource: canonical });
      return redeem(
        () => state.run(SQL.useCode, [engine.now(), hash]),
        minted,
        g.grant_id,
        'Authorization code already used',
      );
    },

    async exchangeRefreshToken(client, refreshToken, scopes, resource) {
      const canonical = lifetimes.resourceUrl();
      checkResource(resource, canonical);
      const hash = secretHash(refreshToken);
      const row = await state.get<TokenRow>(SQL.tokenByHash, [hash]);
      const g = row ? await grant(row.grant_id) : undefined;
      if (!row || row.kind !== 'refresh' || !g || g.client_id !== client.client_id) {
        throw new InvalidGrantError('Invalid refresh token');
      }
      if (row.revoked_at !== null) {
        // Rotation: a refresh token works once. Seeing it again means two holders; end the grant.
        await revokeGrant(g.grant_id);
        throw new InvalidGrantError('Refresh token already used or revoked');
      }
      if (row.expires_at < engine.now()) throw new InvalidGrantError('Refresh token expired');
      if (!(await grantUsable(g, client.client_id))) throw new InvalidGrantError('The approval was revoked');
      sameResource(g, canonical);
      grantedScopes(scopes, g.scopes.split(' '));
      const minted = await mint({ ...g, resource: canonical });
      return redeem(
        () => state.run(SQL.revokeToken, [engine.now(), hash]),
        minted,
        g.grant_id,
        'Refresh token already used',
      );
    },

    async verifyAccessToken(token) {
      const result = await provider.check(token);
      if (!result.ok) throw new InvalidTokenError(`Invalid access token (${result.reason})`);
      return result.auth;
    },

    async revokeToken(client, request: OAuthTokenRevocationRequest) {
      const row = await state.get<TokenRow>(SQL.tokenByHash, [secretHash(request.token)]);
      const g = row ? await grant(row.grant_id) : undefined;
      // RFC 7009 §2.2: an unknown token, or another client's, is not an error.
      if (g && g.client_id === client.client_id) await revokeGrant(g.grant_id);
    },

    async check(token) {
      if (token === undefined || token === '') return { ok: false, reason: 'missing' };
      const canonical = lifetimes.resourceUrl();
      let claims: { gid?: unknown; exp?: number };
      try {
        // The key the token's header names: any key of the state, whichever process made it.
        const key = async (header: { kid?: string }) => {
          const bytes = await keys.byId(header.kid);
          if (!bytes) throw new joseErrors.JWSSignatureVerificationFailed();
          return bytes;
        };
        ({ payload: claims } = await jwtVerify(token, key, {
          issuer: JWT_ISSUER,
          audience: canonical,
          typ: JWT_TYPE,
          algorithms: ['HS256'],
          currentDate: new Date(engine.now()),
          clockTolerance: 0,
        }));
      } catch (e) {
        if (e instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
        const audience = e instanceof joseErrors.JWTClaimValidationFailed && e.claim === 'aud';
        return { ok: false, reason: audience ? 'audience' : 'malformed' };
      }
      const row = await state.get<TokenRow>(SQL.tokenByHash, [secretHash(token)]);
      if (!row || row.kind !== 'access' || typeof claims.gid !== 'string' || row.grant_id !== claims.gid) {
        return { ok: false, reason: 'unknown' };
      }
      if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
      if (row.expires_at <= engine.now()) return { ok: false, reason: 'expired' };
      const g = await grant(row.grant_id);
      if (!g || g.revoked_at !== null || !(await keyActive(state, g.key_id)))
        return { ok: false, reason: 'revoked' };
      if (g.resource !== canonical) return { ok: false, reason: 'audience' };
      const account = await getAccount(engine, g.account_id);
      if (!account) return { ok: false, reason: 'revoked' };
      return {
        ok: true,
        account,
        keyId: g.key_id,
        grantId: g.grant_id,
        auth: {
          token,
          clientId: g.client_id,
          scopes: g.scopes.split(' '),
          expiresAt: Math.floor(row.expires_at / 1000),
          resource: new URL(canonical),
          extra: { account, keyId: g.key_id, grantId: g.grant_id },
        },
      };
    },
  };
  return provider;
}
