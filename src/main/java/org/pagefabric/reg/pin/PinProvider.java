package org.pagefabric.reg.pin;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;

/** The baseline that pins every rank segment once, at start. */
public final class PinProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        all.add(new PolicyDescriptor(PinEverything.NAME,
                "pin and register each rank's whole communication segment once, at start",
                Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE,
                        Capability.DMA_BUF, Capability.PINNED_UP_FRONT),
                ParameterRegistry.of(List.of(), List.of(NicParameters.REGISTER_BASE,
                        NicParameters.REGISTER_PER_PAGE, NicParameters.REGISTER_DONTFORK, OsParameters.PIN_BASE,
                        OsParameters.PIN_PER_PAGE)), List.of(), PinEverything::new));
        return all;
    }
}
