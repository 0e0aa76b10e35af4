/**
 * What an application calls: a {@link Job} is the ranks of a parallel job on one cluster under one
 * registration policy, and a {@link Rank} makes one process's calls (write, read, send, receive,
 * await) on its endpoint, asking the policy for keys first and charging the policy's
 * work to the rank. A {@link RankObserver} hears every call as it begins, which is how a trace is
 * recorded.
 *
 * <p>Layer: Communication, above the registration policies. It may use every layer below it
 * except the policy packages themselves, which it reaches only through {@code reg}'s interfaces;
 * it uses {@code reg}, {@code endpoint}, {@code hw} and {@code sim}.
 */
package org.pagefabric.comm;
