package org.rocprofsys.sampler.unwind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The unwinder's entry: registers (DWARF columns), the stack copy and the sp it was copied from,
 * whoever took the sample (perf or the agent).
 */
class UnwinderTest {
    static final long SP = 0x7ffd_1000L;

    /** Three frames chained by frame pointers, the outermost one's saved bp and return address 0. */
    private static byte[] chain() {
        ByteBuffer st = ByteBuffer.allocate(96).order(ByteOrder.LITTLE_ENDIAN);
        st.putLong(16, SP + 48); // frame at sp+16: caller's bp, return address
        st.putLong(24, 0x2000);
        st.putLong(48, SP + 80);
        st.putLong(56, 0x3000);
        st.putLong(80, 0); // outermost
        st.putLong(88, 0);
        return st.array();
    }

    @Test
    void perfRegistersAndAgentColumnsUnwindAlike() {
        // perf's PERF_SAMPLE_REGS_USER order: bit 6 bp, 7 sp, 8 ip
        long mask = (1L << 6) | (1L << 7) | (1L << 8);
        RegisterSet perf = X86Regs.fromPerf(mask, new long[] {SP + 16, SP, 0x1000});
        // the agent's record: one value per DWARF column 0..16
        long[] columns = new long[X86Regs.COLUMNS];
        columns[X86Regs.RBP] = SP + 16;
        columns[X86Regs.RSP] = SP;
        columns[X86Regs.RIP] = 0x1000;
        RegisterSet agent = RegisterSet.ofColumns(columns);
        assertEquals(0x1000, agent.ip());
        assertEquals(SP, agent.sp());
        assertTrue(agent.has(X86Regs.RAX), "every column given is known");
        assertFalse(perf.has(X86Regs.RAX), "perf gave no rax");

        for (RegisterSet regs : List.of(perf, agent)) {
            UnwindResult r = new Unwinder().unwind(regs, chain(), regs.sp(), new AddressSpace());
            assertEquals(List.of(0x1000L, 0x2000L, 0x3000L), r.pcs());
            assertEquals(UnwindResult.Stop.OUTERMOST, r.stop());
            assertEquals(3, r.framePointerFrames());
            assertEquals(0, r.cfiFrames());
        }
    }

    @Test
    void theStackCopyIsAddressedFromTheGivenSp() {
        RegisterSet regs = RegisterSet.of(0x1000, SP, SP + 16);
        // the same bytes said to start 64 bytes higher: the frame pointer is below the copy
        UnwindResult shifted = new Unwinder().unwind(regs, chain(), SP + 64, new AddressSpace());
        assertEquals(List.of(0x1000L), shifted.pcs());
        assertEquals(UnwindResult.Stop.STACK_END, shifted.stop());
        // a copy that ends before the second saved frame: two frames, then the end of the copy
        byte[] cut = Arrays.copyOf(chain(), 40);
        UnwindResult shortCopy = new Unwinder().unwind(regs, cut, SP, new AddressSpace());
        assertEquals(List.of(0x1000L, 0x2000L), shortCopy.pcs());
        assertEquals(UnwindResult.Stop.STACK_END, shortCopy.stop());
    }

    @Test
    void withoutIpOrSpNothingIsUnwound() {
        RegisterSet noSp = new RegisterSet();
        noSp.set(X86Regs.RIP, 0x1000);
        UnwindResult r = new Unwinder().unwind(noSp, chain(), SP, new AddressSpace());
        assertEquals(List.of(), r.pcs());
        assertEquals(UnwindResult.Stop.NO_UNWIND_INFO, r.stop());
        assertEquals("no ip or sp sampled", r.detail());
    }
}
