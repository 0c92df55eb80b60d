package org.rocprofsys.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DemanglerTest {
    @Test
    void demanglesThroughLibstdcxx() {
        assertTrue(Demangler.available(), "libstdc++.so.6 should be on any machine with g++");
        Demangler d = new Demangler();
        assertEquals("ns::Widget::compute(int) const", d.demangle("_ZNK2ns6Widget7computeEi"));
        assertEquals("int twice<int>(int)", d.demangle("_Z5twiceIiET_S0_"));
        assertEquals("plain_c", d.demangle("plain_c"));
        assertEquals("_Znotvalid", d.demangle("_Znotvalid"));
    }

    @Test
    void demanglerPassThrough() {
        Demangler d = Demangler.shared();
        assertTrue(Demangler.available());
        assertEquals("main", d.demangle("main"));
        assertEquals("_Znotvalid!", d.demangle("_Znotvalid!"));
        assertEquals("ns::inner::compute(long, char const*)", d.demangle("_ZN2ns5inner7computeElPKc"));
        assertEquals("ns::Widget<int>::run(int)", d.demangle("_ZN2ns6WidgetIiE3runEi"));
        // cached: the same instance comes back
        assertTrue(d.demangle("_ZN2ns6WidgetIiE3runEi") == d.demangle("_ZN2ns6WidgetIiE3runEi"));
        assertEquals(null, d.demangle(null));
    }

    @Test
    void versionSuffixesAreKeptAfterTheDemangledName() {
        Demangler d = new Demangler();
        assertEquals("std::terminate()@GLIBCXX_3.4", d.demangle("_ZSt9terminatev@GLIBCXX_3.4"));
        assertEquals("std::terminate()@@GLIBCXX_3.4", d.demangle("_ZSt9terminatev@@GLIBCXX_3.4"));
        assertEquals("qsort@@GLIBC_2.2.5", d.demangle("qsort@@GLIBC_2.2.5"));
        assertEquals("_Znotvalid@V1", d.demangle("_Znotvalid@V1"));
    }
}
