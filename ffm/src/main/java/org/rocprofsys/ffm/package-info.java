/**
 * The one FFM layer: {@link org.rocprofsys.ffm.LibC}, the project's only libc binding, and
 * {@link org.rocprofsys.ffm.OptionalLibrary}, which loads a native library the tool can do without
 * from a list of candidates and says why when none loads.
 */
package org.rocprofsys.ffm;
