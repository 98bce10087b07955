/** @fastify/session's Session class (plugins/session.ts replaces its change check); the package types only its index. */
declare module '@fastify/session/lib/session.js' {
  const Session: { prototype: object };
  export default Session;
}
