package org.rocprofsys.instrument.capstone;

/** Capstone's architecture-independent instruction groups (cs_group_type, the same in 4 and 5). */
public enum Group {
    JUMP(1),
    CALL(2),
    RET(3),
    INT(4),
    IRET(5),
    PRIVILEGE(6),
    BRANCH_RELATIVE(7);

    final int id;

    Group(int id) {
        this.id = id;
    }

    static Group of(int id) {
        for (Group g : values()) {
            if (g.id == id) return g;
        }
        return null;
    }
}
