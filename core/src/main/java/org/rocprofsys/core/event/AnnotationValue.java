package org.rocprofsys.core.event;

/** The value of an {@link Annotation}, typed as the user API types it. */
public sealed interface AnnotationValue {
    record Text(String value) implements AnnotationValue {}

    record Signed(long value) implements AnnotationValue {}

    record Unsigned(long value) implements AnnotationValue {}

    record Real(double value) implements AnnotationValue {}

    record Pointer(long address) implements AnnotationValue {}

    record Bool(boolean value) implements AnnotationValue {}
}
