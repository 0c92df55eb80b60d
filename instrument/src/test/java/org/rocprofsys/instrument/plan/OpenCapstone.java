package org.rocprofsys.instrument.plan;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.instrument.capstone.Capstone;

/**
 * One Capstone handle for the tests of a class ({@code @RegisterExtension static}): opened before
 * all of them, closed after; and the planner on it.
 */
final class OpenCapstone implements BeforeAllCallback, AfterAllCallback {
    private Capstone cs;

    @Override
    public void beforeAll(ExtensionContext context) {
        cs = Capstone.openX86_64();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        cs.close();
    }

    Capstone get() {
        return cs;
    }

    /** The plan of {@code bin} with {@code options}. */
    PlanResult plan(Path bin, PlannerOptions options) throws Exception {
        return new Planner(cs).plan(ElfFile.open(bin), options);
    }
}
