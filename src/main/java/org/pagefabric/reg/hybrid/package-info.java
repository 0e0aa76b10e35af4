/**
 * A hybrid of bounce buffers and a pin-down cache split by message size, as libfabric's EFA
 * provider copies below {@code FI_EFA_MAX_MEMCPY_SIZE} and registers above it.
 */
package org.pagefabric.reg.hybrid;
