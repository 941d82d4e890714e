/**
 * Studio's browser script, bundled from ./client/ by scripts/build-studio.mts into
 * client.bundle.js (generated, not committed; the vitest projects build it in memory).
 */
declare const script: string;
export default script;
