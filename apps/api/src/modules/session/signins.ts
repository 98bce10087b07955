/** The sign-in log: every sign-in, success or refusal, with its source, address and reason. */
import type { Db } from '../../db/database.ts';

export type SignInSource = 'password' | 'oidc';

export interface SignInEvent {
  userId?: number | null;
  account: string;
  source: SignInSource;
  ip: string;
  success: boolean;
  code: string;
  reason: string;
}

export async function recordSignIn(db: Db, e: SignInEvent): Promise<void> {
  await db.signInLog.create({
    data: {
      userId: e.userId ?? null,
      account: e.account.slice(0, 64),
      source: e.source,
      ip: e.ip.slice(0, 64),
      success: e.success,
      code: e.code,
      reason: e.reason.slice(0, 300),
    },
  });
}
