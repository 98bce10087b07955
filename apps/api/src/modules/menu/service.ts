import type { Db } from '../../db/database.ts';

/** The menu entries granted to a user type, in menu order. */
export function menuOf(db: Db, type: number) {
  return db.menuEntry.findMany({
    where: { grants: { some: { userType: type } } },
    orderBy: [{ sort: 'asc' }, { id: 'asc' }],
    select: { id: true, cn: true, name: true, icon: true, router: true, mpid: true },
  });
}

/** Whether a user type has any page in this portal (none: session code 205). */
export async function typeHasMenu(db: Db, type: number): Promise<boolean> {
  return (await db.menuGrant.count({ where: { userType: type } })) > 0;
}
