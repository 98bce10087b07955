/**
 * COMPANY_SITE_URL: the company site that the legacy portal's relative links (logo, 帮助, the footer's
 * agreements) belong to. Validated at start; told to the web by every answer of the session check,
 * the login page's (nobody signed in) included; absent on a standalone deployment.
 */
import { sessionApi } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildTestApp, createUser, login, type TestApp, callApi } from './helpers.ts';

const SECRET = { SESSION_SECRET: 'x'.repeat(32) };

describe('COMPANY_SITE_URL', () => {
  it('is an http(s) address; anything else stops the start naming the variable', () => {
    expect(loadConfig({ ...SECRET }).companySiteUrl).toBeUndefined();
    expect(loadConfig({ ...SECRET, COMPANY_SITE_URL: ' ' }).companySiteUrl).toBeUndefined();
    expect(loadConfig({ ...SECRET, COMPANY_SITE_URL: 'https://www.example.com/' }).companySiteUrl).toBe(
      'https://www.example.com',
    );
    expect(loadConfig({ ...SECRET, COMPANY_SITE_URL: 'https://portal.example.com/site' }).companySiteUrl).toBe(
      'https://portal.example.com/site',
    );
    expect(() => loadConfig({ ...SECRET, COMPANY_SITE_URL: 'www.example.com' })).toThrow(
      /COMPANY_SITE_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ ...SECRET, COMPANY_SITE_URL: 'ftp://example.com' })).toThrow(/COMPANY_SITE_URL/);
    expect(() => loadConfig({ ...SECRET, COMPANY_SITE_URL: 'https://example.com/?a=1' })).toThrow(
      /COMPANY_SITE_URL must not carry a query/,
    );
  });

  describe('the session check', () => {
    let site: TestApp;
    let standalone: TestApp;
    beforeAll(async () => {
      site = await buildTestApp({ config: { companySiteUrl: 'https://www.example.com' } });
      standalone = await buildTestApp({ db: site.db });
    });
    afterAll(async () => {
      await standalone.close();
      await site.close();
    });

    it('says where the company site is, signed in or not', async () => {
      expect((await callApi(site.app, sessionApi.current)).json()).toMatchObject({
        code: '10000007',
        companySiteUrl: 'https://www.example.com',
      });
      const u = await createUser(site.db, { type: 3 });
      const cookie = await login(site.app, u.account, u.password);
      expect((await callApi(site.app, sessionApi.current, {}, cookie)).json()).toMatchObject({
        code: '0',
        companySiteUrl: 'https://www.example.com',
      });
    });

    it('standalone: says nothing of one', async () => {
      expect((await callApi(standalone.app, sessionApi.current)).json()).not.toHaveProperty('companySiteUrl');
    });
  });
});
