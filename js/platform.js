/**
 * Where Node-only code comes from. The Node entry (js/node.js, the `node` export condition)
 * registers js/platform_node.js statically, so Node bundles include it; code that imports
 * js/index.js directly in Node loads it on first use. Browser bundles never see a `node:*`
 * import: the specifier below is not a literal in an import() call.
 * @module tribo/platform
 */

/** True in Node (main thread or worker_threads), false in pages and Web Workers. */
export const isNode = typeof process === 'object' && !!process.versions?.node && typeof window === 'undefined'
  && typeof importScripts === 'undefined';

let node = null;
const NODE_PLATFORM = './platform_node.js';

/** Called by js/node.js with the statically imported Node platform. */
export function setNodePlatform(p) { node = p; }

/** @returns {Promise<typeof import('./platform_node.js')>} */
export async function nodePlatform() {
  if (!node) node = await import(/* @vite-ignore */ NODE_PLATFORM);
  return node;
}
