/**
 * The permissions feature's public face: nothing (its admin page is pages/permission.tsx). Pages hide
 * the buttons and columns a user may not use through lib/permissions.ts and components/Permitted.tsx
 * (the server refuses them anyway).
 */
export {};
