package org.pagefabric.reg;

import java.util.Arrays;
import java.util.function.Consumer;
import org.pagefabric.endpoint.Endpoint;

/**
 * A policy's state for each rank of its job, found by the rank's endpoint in constant time
 * without boxing: the per-rank half of a policy, the policy object itself being the per-job
 * half. Ranks are numbered densely from zero, so an array indexed by rank is all it takes.
 *
 * @param <S> the policy's per-rank state
 */
public final class PerRank<S> {
    private Object[] states = new Object[4];
    private int size;

    /** Records {@code state} as {@code rank}'s. */
    public void put(Endpoint rank, S state) {
        int i = rank.id();
        if (i >= states.length) {
            states = Arrays.copyOf(states, Math.max(i + 1, 2 * states.length));
        }
        states[i] = state;
        size = Math.max(size, i + 1);
    }

    /** {@code rank}'s state, or {@code null} before the policy set the rank up. */
    public S get(Endpoint rank) {
        return get(rank.id());
    }

    /** The state of rank {@code id}, or {@code null}. */
    @SuppressWarnings("unchecked")
    public S get(int id) {
        return id < size ? (S) states[id] : null;
    }

    /** One more than the highest rank with a state. */
    public int size() {
        return size;
    }

    /** Applies {@code action} to every rank's state, in rank order, skipping ranks without one. */
    public void forEach(Consumer<? super S> action) {
        for (int i = 0; i < size; i++) {
            S s = get(i);
            if (s != null) {
                action.accept(s);
            }
        }
    }
}
