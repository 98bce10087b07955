/**
 * The portal as an OpenID Connect relying party: authorization code with PKCE, through
 * openid-client (panva's certified client). Only this file speaks the protocol; what a sign-in
 * means for the portal (which account, which refusal code) is company-login.ts.
 *
 * The state, nonce and PKCE verifier of a sign-in in progress live in the session (server-side,
 * in Postgres), never in the browser; the provider is discovered on first use, not at start, so
 * the portal starts (and its password form works) while the provider is unreachable.
 */
import * as client from 'openid-client';
import { HANDOFF_PARAMS } from '@esm/contracts';
import type { OidcConfig } from '../../config.ts';
import type { PendingSignIn } from '../../plugins/session.ts';

/** How long a user may spend at the provider's login form. */
export const HANDOFF_TTL_MS = 10 * 60_000;

/** What the provider said about the user: the ID token's claims with the userinfo answer. */
export interface Identity {
  claims: Record<string, unknown>;
  idToken?: string;
}

/** The userinfo call failed after the ID token had named the user: its claims say who (for the log). */
export class UserinfoError extends Error {
  constructor(
    readonly claims: Record<string, unknown>,
    cause: unknown,
  ) {
    super('userinfo failed', { cause });
  }
}

export class RelyingParty {
  private configuration?: Promise<client.Configuration>;

  constructor(readonly cfg: OidcConfig) {}

  /** The provider's metadata, discovered once (retried on the next call after a failure). */
  private discover(): Promise<client.Configuration> {
    const issuer = new URL(this.cfg.issuer);
    this.configuration ??= client
      .discovery(
        issuer,
        this.cfg.clientId,
        undefined,
        this.cfg.clientSecret ? client.ClientSecretBasic(this.cfg.clientSecret) : client.None(),
        // plain http only when the operator configured an http issuer (a provider on the same host)
        { execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [], timeout: 10 },
      )
      .catch((e: unknown) => {
        this.configuration = undefined;
        throw e;
      });
    return this.configuration;
  }

  /** The provider's login address for a new sign-in, and what to keep until it comes back. */
  async start(): Promise<{ url: string; pending: PendingSignIn }> {
    const config = await this.discover();
    const pending: PendingSignIn = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      at: Date.now(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.cfg.redirectUri,
      scope: this.cfg.scopes,
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /**
   * Completes a hand-off: checks the response (state, issuer), redeems the code at the token
   * endpoint with the PKCE verifier (the provider honours a code once), checks the ID token
   * (signature, audience, nonce) and reads the userinfo. Throws on anything wrong.
   */
  async complete(params: Record<string, string>, pending: PendingSignIn): Promise<Identity> {
    const config = await this.discover();
    const url = new URL(this.cfg.redirectUri);
    url.search = '';
    for (const k of HANDOFF_PARAMS) if (params[k] !== undefined) url.searchParams.set(k, params[k]);
    const tokens = await client.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims()!;
    let info: Record<string, unknown>;
    try {
      info =
        tokens.access_token && config.serverMetadata().userinfo_endpoint
          ? await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
          : {};
    } catch (e) {
      throw new UserinfoError(idClaims, e);
    }
    return { claims: { ...idClaims, ...info }, idToken: tokens.id_token };
  }

  /** The provider's sign-out address (RP-initiated logout), or undefined when it offers none. */
  async endSessionUrl(idToken: string | undefined, postLogoutRedirectUri: string): Promise<string | undefined> {
    const config = await this.discover();
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    const params: Record<string, string> = {
      post_logout_redirect_uri: postLogoutRedirectUri,
      client_id: this.cfg.clientId,
    };
    if (idToken) params.id_token_hint = idToken;
    return client.buildEndSessionUrl(config, params).href;
  }
}
