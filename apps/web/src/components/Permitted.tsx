/** Renders its children only when the user may press the button of `endpoint` (see useButton). */
import type { ReactNode } from 'react';
import type { EndpointDef } from '@esm/contracts';
import { useButton } from '../lib/permissions.ts';

export function Permitted({ endpoint, children }: { endpoint: EndpointDef; children: ReactNode }) {
  return useButton(endpoint) ? <>{children}</> : null;
}
