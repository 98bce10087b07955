import { QueryClient } from '@tanstack/react-query';

/** The portal's one query client (its own module: the shell and the sign-in hand-over share it). */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 0 }, mutations: { retry: 0 } },
});
