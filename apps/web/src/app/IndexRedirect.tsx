import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router';
import { sessionQuery, useSession } from '../features/session/index.ts';
import { useCurrentUser } from './SessionGate.tsx';

/**
 * /esm and /esm/ lead to the type's default page, keeping the standardCode query — or,
 * right after a company sign-in, to the page the user had asked for before it (the server gives
 * `returnTo` only when it is one of the user's own pages). It is used once: later visits to /esm
 * go to the default page again.
 */
export function IndexRedirect() {
  const user = useCurrentUser();
  const session = useSession();
  const qc = useQueryClient();
  const { search } = useLocation();
  // taken at the first render: the effect below clears it from the cache, and this component
  // re-renders from that before the navigation has happened — it must not change its mind
  const [returnTo] = useState(() => (session.data?.state === 'ok' ? session.data.returnTo : undefined));
  useEffect(() => {
    if (returnTo)
      qc.setQueryData(sessionQuery.queryKey, (s) => (s?.state === 'ok' ? { state: 'ok' as const, user: s.user } : s));
  }, [returnTo, qc]);
  if (returnTo) return <Navigate to={returnTo} replace />;
  const code = new URLSearchParams(search).get('standardCode');
  const query = code ? `?standardCode=${encodeURIComponent(code)}` : '';
  return <Navigate to={`${user.defaultPath}${query}`} replace />;
}
