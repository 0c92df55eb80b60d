package org.rocprofsys.instrument.select;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SignaturePartsTest {
    @Test
    void splitsSignatures() {
        SignatureParts p = SignatureParts.parse("int twice<int>(int)");
        assertEquals("int", p.returnType());
        assertEquals("twice<int>", p.name());
        assertEquals("int", p.parameters());

        p = SignatureParts.parse("ns::Widget::compute(int) const");
        assertEquals("", p.returnType());
        assertEquals("ns::Widget::compute", p.name());
        assertEquals(" const", p.qualifiers());

        p = SignatureParts.parse("std::vector<int, std::allocator<int> >::operator[](unsigned long)");
        assertEquals("std::vector<int, std::allocator<int> >::operator[]", p.name());

        p = SignatureParts.parse("(anonymous namespace)::helper(double)");
        assertEquals("(anonymous namespace)::helper", p.name());
        assertEquals("", p.returnType());

        p = SignatureParts.parse("Foo::operator()(int, char*) [clone .constprop.0]");
        assertEquals("Foo::operator()", p.name());
        assertEquals("int, char*", p.parameters());

        p = SignatureParts.parse("operator new(unsigned long)");
        assertEquals("operator new", p.name());

        p = SignatureParts.parse("main");
        assertEquals("main", p.name());
        assertNull(p.parameters());
        assertEquals("main", p.nameWithParameters());
    }
}
