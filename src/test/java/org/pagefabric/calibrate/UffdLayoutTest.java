package org.pagefabric.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The userfaultfd structures and ioctl numbers against the values of {@code <linux/userfaultfd.h>}
 * on x86_64 (as printed by a C program with the kernel headers).
 */
class UffdLayoutTest {
    @Test
    void ioctlNumbersMatchTheKernelHeader() {
        assertEquals(0xC018AA3FL, Uffd.IOC_API);
        assertEquals(0xC020AA00L, Uffd.IOC_REGISTER);
        assertEquals(0x8010AA01L, Uffd.IOC_UNREGISTER);
        assertEquals(0x8010AA02L, Uffd.IOC_WAKE);
        assertEquals(0xC028AA03L, Uffd.IOC_COPY);
        assertEquals(0xC020AA04L, Uffd.IOC_ZEROPAGE);
        assertEquals(0xAA00L, Uffd.IOC_NEW);
    }

    @Test
    void structureSizesAndOffsetsMatchTheKernelHeader() {
        assertEquals(24, Uffd.API.byteSize());
        assertEquals(32, Uffd.REGISTER.byteSize());
        assertEquals(40, Uffd.COPY.byteSize());
        assertEquals(32, Uffd.ZEROPAGE.byteSize());
        assertEquals(32, Uffd.MSG.byteSize());
        assertEquals(0, Uffd.MSG_EVENT);
        assertEquals(16, Uffd.MSG_FAULT_ADDRESS);
        assertEquals(8, Uffd.MSG_REMOVE_START);
        assertEquals(8, Uffd.POLLFD.byteSize());
    }
}
