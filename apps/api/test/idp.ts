/**
 * A real OpenID provider for the tests: panva's oidc-provider (a certified
 * implementation), in-process on 127.0.0.1, with one test client and test accounts. Its own
 * development login form signs in any account it knows (the password is not checked); consent
 * is implied for the portal (a first-party client), as a company's provider would configure it.
 * Used by apps/api/test/oidc.test.ts and by the e2e server (e2e/serve.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Claims of the provider's accounts, by account id (= `sub`). */
export type IdpAccount = {
  preferred_username?: string;
  name?: string;
  esm_user_type?: number | string;
  esm_supplier_code?: string;
};

export const IDP_CLIENT = { id: 'esm-portal', secret: 'esm-portal-test-secret-0123456789' } as const;

/** The provider's people: portal accounts, and company accounts the portal has never seen. */
export const IDP_ACCOUNTS: Record<string, IdpAccount> = {
  'zhang.demo3': { preferred_username: 'demo3', name: '张工（图纸管理）', esm_user_type: 3 },
  'li.demo2': { preferred_username: 'demo2', name: '李经理（海达精密）', esm_user_type: 2, esm_supplier_code: 'S001' },
  'zhou.demo9': { preferred_username: 'demo9', name: '周工', esm_user_type: 9 },
  'wang.nobody': { preferred_username: 'no-portal-account', name: '王某', esm_user_type: 3 },
  'zhao.wrongtype': { preferred_username: 'demo8', name: '赵某', esm_user_type: 3 },
  'qian.noaccount': { name: '钱某（无账号声明）', esm_user_type: 3 },
};

export interface TestIdp {
  issuer: string;
  /** Makes every authorization code issued so far expired (the provider then refuses it). */
  expireCodes(): void;
  /** Adds or changes an account (tests that disable or create users). */
  accounts: Record<string, IdpAccount>;
  /** Until called again with undefined: the userinfo endpoint refuses the access token with this error (401, WWW-Authenticate). */
  failUserinfo(error: string | undefined): void;
  close(): Promise<void>;
}

interface Stored {
  payload: Record<string, unknown> & {
    uid?: string;
    grantId?: string;
    userCode?: string;
    exp?: number;
    consumed?: number;
  };
}

export async function startIdp(opts: {
  port?: number;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}): Promise<TestIdp> {
  const store = new Map<string, Stored>();
  const now = () => Math.floor(Date.now() / 1000);
  /** oidc-provider's storage interface, in memory, so a test can reach the codes it issued. */
  class Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Stored['payload']) {
      store.set(this.key(id), { payload });
    }
    async find(id: string) {
      return store.get(this.key(id))?.payload;
    }
    async findByUid(uid: string) {
      for (const [k, v] of store) if (k.startsWith(`${this.model}:`) && v.payload.uid === uid) return v.payload;
      return undefined;
    }
    async findByUserCode(code: string) {
      for (const [k, v] of store) if (k.startsWith(`${this.model}:`) && v.payload.userCode === code) return v.payload;
      return undefined;
    }
    async consume(id: string) {
      const s = store.get(this.key(id));
      if (s) s.payload.consumed = now();
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, v] of store) if (v.payload.grantId === grantId) store.delete(k);
    }
  }

  const accounts: Record<string, IdpAccount> = { ...IDP_ACCOUNTS };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    adapter: Adapter,
    clients: [
      {
        client_id: IDP_CLIENT.id,
        client_secret: IDP_CLIENT.secret,
        redirect_uris: opts.redirectUris,
        post_logout_redirect_uris: opts.postLogoutRedirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], esm: ['esm_user_type', 'esm_supplier_code'] },
    scopes: ['openid', 'profile', 'esm'],
    cookies: { keys: ['esm-test-idp-cookie-key-0123456789'] },
    pkce: { required: () => true },
    // the ID token carries the profile claims too, as most company providers send it: so the
    // portal knows who signed in even when the userinfo call fails afterwards
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, id: string) {
      const claims = accounts[id];
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
    },
    // consent implied for the portal: the grant the user would have confirmed
    async loadExistingGrant(ctx: {
      oidc: {
        client: { clientId: string };
        session: { accountId: string; grantIdFor(c: string): string | undefined };
        result?: { consent?: { grantId?: string } };
        provider: {
          Grant: {
            find(id: string): Promise<unknown>;
            new (a: object): { addOIDCScope(s: string): void; save(): Promise<string> };
          };
        };
      };
    }) {
      const { oidc } = ctx;
      const grantId = oidc.result?.consent?.grantId || oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope('openid profile esm');
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // the default page pulls a web font from the internet: the same form, offline
        async logoutSource(ctx: { body: string }, form: string) {
          ctx.body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sign out</title></head><body>${form}<h1>Do you want to sign-out?</h1><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button><button type="submit" form="op.logoutForm">No, stay signed in</button></body></html>`;
        },
      },
    },
  });
  provider.on('server_error', (_ctx, err) => console.error('test idp server_error', err));
  let userinfoError: string | undefined;
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (userinfoError && req.url?.startsWith('/me')) {
      res
        .writeHead(401, {
          'www-authenticate': `Bearer error="${userinfoError}", error_description="test idp: token refused"`,
        })
        .end();
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    accounts,
    failUserinfo(error) {
      userinfoError = error;
    },
    expireCodes() {
      for (const [k, v] of store) if (k.startsWith('AuthorizationCode:')) v.payload.exp = now() - 1;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
