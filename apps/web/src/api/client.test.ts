import { afterEach, describe, expect, it, vi } from 'vitest';
import { NETWORK_ERROR_TEXT, sessionApi } from '@esm/contracts';
import { ApiError, call } from './client.ts';
import { feedback } from './feedback.ts';

/** The toasts shown, as antd's message.error receives them. */
function captureToasts() {
  const toasts = vi.fn();
  feedback.message = { error: toasts } as unknown as typeof feedback.message;
  return () => toasts.mock.calls.map((c) => (c[0] as { content: string }).content);
}

afterEach(() => {
  vi.unstubAllGlobals();
  feedback.message = undefined;
});

describe('the request id in error toasts', () => {
  it("a server error shows the answer's X-Request-Id, so the user can quote it", async () => {
    const shown = captureToasts();
    const id = '5b0e8d2c-4a1f-4c3e-9d7a-0f1e2d3c4b5a';
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(
          JSON.stringify({ success: false, code: '500', message: '系统异常，请稍后重试或联系管理员', data: null }),
          { status: 500, headers: { 'x-request-id': id } },
        ),
    );
    const err = await call(sessionApi.current).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).requestId).toBe(id);
    expect(shown()).toHaveLength(1);
    expect(shown()[0]).toContain(`请求编号 ${id}`);
  });

  it('no answer: the toast shows the id the page sent with the call', async () => {
    const shown = captureToasts();
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push((init.headers as Record<string, string>)['x-client-request-id']!);
      throw new TypeError('Failed to fetch');
    });
    await call(sessionApi.current).catch(() => undefined);
    expect(sent[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(shown()).toEqual([`${NETWORK_ERROR_TEXT}（请求编号 ${sent[0]}）`]);
  });

  it('a refusal a user can act on (4xx) carries no id in its toast', async () => {
    const shown = captureToasts();
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ success: false, code: '403', message: '您没有权限使用该功能', data: null }), {
          status: 403,
          headers: { 'x-request-id': 'abc-123-def-456' },
        }),
    );
    await call(sessionApi.current).catch(() => undefined);
    expect(shown()).toHaveLength(1);
    expect(shown()[0]).not.toContain('请求编号');
  });
});
