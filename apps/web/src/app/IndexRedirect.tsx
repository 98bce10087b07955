import { Navigate, useLocation } from 'react-router';
import { useCurrentUser } from './SessionGate.tsx';

/** /esm and /esm/ lead to the type's default page, keeping the standardCode query (spec §2). */
export function IndexRedirect() {
  const user = useCurrentUser();
  const { search } = useLocation();
  const code = new URLSearchParams(search).get('standardCode');
  const query = code ? `?standardCode=${encodeURIComponent(code)}` : '';
  return <Navigate to={`${user.defaultPath}${query}`} replace />;
}
