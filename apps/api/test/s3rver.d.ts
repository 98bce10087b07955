/** s3rver ships no types: the little the test S3 server (s3-server.ts) uses. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  import type { Server } from 'node:http';
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
      configureBuckets?: { name: string }[];
      resetOnClose?: boolean;
      allowMismatchedSignatures?: boolean;
      vhostBuckets?: boolean;
    });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    httpServer?: Server;
  }
}
