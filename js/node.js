/**
 * Node entry of the package (export condition `node`): the browser API with the Node platform
 * imported statically, so that Node bundlers include it.
 * @module tribo/node
 */
import { setNodePlatform } from './platform.js';
import * as platform from './platform_node.js';

setNodePlatform(platform);

export * from './index.js';
