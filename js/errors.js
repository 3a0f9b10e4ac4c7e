/**
 * Status codes of the C API (tb_status) turned into JavaScript errors that name the field.
 * @module tribo/errors
 */

export const Status = Object.freeze({
  OK: 0, INVALID_ARGUMENT: 1, NOT_FOUND: 2, CAPACITY: 3, OUT_OF_MEMORY: 4, INVALID_STATE: 5,
});

/**
 * @param {number} status a tb_status (positive)
 * @param {string} message the engine's message, which names the field and value
 * @returns {Error}
 */
export function errorFor(status, message) {
  switch (status) {
    case Status.INVALID_ARGUMENT:
    case Status.NOT_FOUND:
    case Status.CAPACITY:
      return new RangeError(message);
    default:
      return new Error(message);
  }
}

/**
 * A snapshot that cannot be restored. `reason` is the engine's name for why (tb_snapshot_error):
 * 'truncated', 'trailing-bytes', 'bad-magic', 'bad-version', 'foreign' (written by a build with
 * another storage layout), 'bad-checksum', 'corrupt' (checksum right, content inconsistent).
 */
export class SnapshotError extends Error {
  constructor(reason, message) {
    super(message);
    this.name = 'SnapshotError';
    this.reason = reason;
  }
}
