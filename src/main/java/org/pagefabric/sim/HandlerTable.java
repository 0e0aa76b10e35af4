package org.pagefabric.sim;

import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * Small integer ids for event handlers, so that a pending event stores its receiver in a
 * {@code long} beside its argument rather than in a separate object array. Components receive
 * their id when they register; other handlers (lambdas, test probes) on first use. Id 0 is
 * reserved for "no handler" (a cancelled event).
 */
final class HandlerTable {
    /** Entries of the recent-handler cache; a power of two. */
    static final int CACHE = 64;

    private EventHandler[] byId = new EventHandler[256];
    private final IdentityHashMap<EventHandler, Integer> ids = new IdentityHashMap<>();
    private int next = 1;
    // Handlers that are not components (devices' domains, lambdas) alternate from event to event:
    // a small direct-mapped cache by identity hash spares the map lookup and its boxed id.
    private final EventHandler[] cachedHandler = new EventHandler[CACHE];
    private final int[] cachedId = new int[CACHE];

    /** The id the next {@link #assign} gives. */
    int nextId() {
        return next;
    }

    /** Assigns the next id to a handler that has none yet. */
    int assign(EventHandler h) {
        if (next > EventSlab.MAX_HANDLER_ID) {
            throw new SimulationException("too many distinct event handlers");
        }
        int id = next++;
        if (id >= byId.length) {
            byId = Arrays.copyOf(byId, byId.length * 2);
        }
        byId[id] = h;
        ids.put(h, id);
        return id;
    }

    /** The id of any handler: the component's own, or one looked up (and assigned) here. */
    int idOf(EventHandler h) {
        if (h instanceof Component c) {
            return c.handlerId;
        }
        if (h instanceof FrequentHandler f) {
            if (f.idOwner != this) {
                f.handlerId = lookUp(h);
                f.idOwner = this;
            }
            return f.handlerId;
        }
        int k = System.identityHashCode(h) & (CACHE - 1);
        if (cachedHandler[k] == h) {
            return cachedId[k];
        }
        int v = lookUp(h);
        cachedHandler[k] = h;
        cachedId[k] = v;
        return v;
    }

    private int lookUp(EventHandler h) {
        Integer id = ids.get(h);
        return id != null ? id : assign(h);
    }

    EventHandler get(int id) {
        return byId[id];
    }
}
