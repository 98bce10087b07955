/** The session check as a react-query query, for the portal's shell (SessionGate, IndexRedirect). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkSession } from './calls.ts';

export { withoutHandoff, logout, type SessionCheck } from './calls.ts';

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: checkSession,
  staleTime: 60_000,
  retry: false,
});
export const useSession = () => useQuery(sessionQuery);
