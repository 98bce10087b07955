/** Every declared call, for the walks that cover each one by construction (access, bodies, OpenAPI). */
import type { EndpointDef } from './endpoint.ts';
import { archivesApi } from './archives.ts';
import { empowerApi } from './empower/index.ts';
import { exportApi } from './export.ts';
import { filesApi } from './files.ts';
import { logsApi } from './logs.ts';
import { menuApi } from './menu.ts';
import { noticesApi } from './notices/index.ts';
import { sessionApi } from './session.ts';
import { standardlogApi } from './standardlog.ts';
import { visitsApi } from './visits.ts';
import { documentIssuesApi } from './documentIssues/index.ts';
import { problemTypesApi } from './problemTypes.ts';
import { countersignApi } from './countersign/index.ts';
import { bomApi } from './bom/index.ts';
import { permissionsApi } from './permissions/index.ts';
import { phoneLogApi } from './phoneLog.ts';
import { auditApi } from './audit.ts';
import { notificationsApi } from './notifications.ts';

export const ALL_ENDPOINTS: readonly EndpointDef[] = [
  archivesApi,
  empowerApi,
  exportApi,
  filesApi,
  logsApi,
  menuApi,
  noticesApi,
  sessionApi,
  standardlogApi,
  visitsApi,
  documentIssuesApi,
  problemTypesApi,
  countersignApi,
  bomApi,
  permissionsApi,
  phoneLogApi,
  auditApi,
  notificationsApi,
].flatMap((api) => Object.values(api));
