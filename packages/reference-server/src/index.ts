/**
 * @engagekit/reference-server: the reference deployment's parts for embedding. The API's behaviour is
 * `@engagekit/runtime`, re-exported here; this package adds the SQL store (`./store`: PGlite or
 * PostgreSQL) and its command, `engagekit-server`. The process-level parts (the command's server,
 * its environment) pull in Node built-ins and are not exported.
 */
export * from '@engagekit/runtime';
