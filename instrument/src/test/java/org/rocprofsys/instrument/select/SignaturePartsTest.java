package org.rocprofsys.instrument.select;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SignaturePartsTest {
    /** Each part as expected: '*' is not checked, NULL is null, '' the empty string. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            int twice<int>(int)                                                | int | twice<int>                                          | int        | *
            ns::Widget::compute(int) const                                     | ''  | ns::Widget::compute                                 | *          | ' const'
            std::vector<int, std::allocator<int> >::operator[](unsigned long) | *   | std::vector<int, std::allocator<int> >::operator[] | *          | *
            (anonymous namespace)::helper(double)                              | ''  | (anonymous namespace)::helper                       | *          | *
            Foo::operator()(int, char*) [clone .constprop.0]                   | *   | Foo::operator()                                     | int, char* | *
            operator new(unsigned long)                                        | *   | operator new                                        | *          | *
            main                                                               | *   | main                                                | NULL       | *
            """)
    void splitsSignatures(String signature, String returnType, String name, String parameters, String qualifiers) {
        SignatureParts p = SignatureParts.parse(signature);
        check(returnType, p.returnType());
        check(name, p.name());
        check(parameters, p.parameters());
        check(qualifiers, p.qualifiers());
    }

    private static void check(String expected, String actual) {
        switch (expected) {
            case "*" -> {}
            case "NULL" -> assertNull(actual);
            default -> assertEquals(expected, actual);
        }
    }

    @Test
    void aNameWithoutParametersIsItsOwnNameWithParameters() {
        assertEquals("main", SignatureParts.parse("main").nameWithParameters());
    }
}
