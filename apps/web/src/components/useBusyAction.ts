/**
 * A button's action that answers with a toast: while it runs its key is `busy` (the button shows
 * its spinner, a second click waits), its text is toasted as a success and the lists refreshed;
 * a failure is toasted with the server's own words (serverErrorText) or `failure`.
 */
import { useState } from 'react';
import { App } from 'antd';
import { serverErrorText } from './serverErrors.ts';

export function useBusyAction(refresh: () => Promise<unknown>) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, action: () => Promise<string>, failure: string) => {
    setBusy(key);
    try {
      message.success(await action());
      await refresh();
    } catch (e) {
      message.error(serverErrorText(e, failure));
    } finally {
      setBusy(null);
    }
  };
  return { busy, setBusy, run };
}
