/**
 * Recording a real MPI program: the preloaded interposer (src/main/c/pfrec.c) is built and run
 * under the program's launcher, and its per-process logs are merged into one trace
 * (docs/TRACES.md, "Recording an MPI program").
 */
package org.pagefabric.record;
