/*
 * A rewritten shared library written by hand (see rewritten.S): one function and its area, each in
 * a section linked at a fixed bias-relative vaddr (-Wl,--section-start=.rsys_text=0x100000,
 * --section-start=.rsys_area=0x200000), so that the note and the tables can name them as
 * constants. Loaded by instr_runtime_test with dlopen: the agent discovers it after the dlopen.
 *   dso_rw_add(a, b) -> a + b     push rbp; mov rbp, rsp; sub rsp, 16 relocated (8 bytes)
 */
    .intel_syntax noprefix
#include "instr_asm.inc"
    .set AREA_VADDR, 0x200000
    .set TEXT_VADDR, 0x100000

    .section .rsys_text, "ax", @progbits
    .globl dso_rw_add
    .type dso_rw_add, @function
    .p2align 4
dso_rw_add:
    jmp T_add
    int3
    int3
    int3
.Lbody:
    lea rax, [rdi + rsi]
    leave
    ret
    .size dso_rw_add, .-dso_rw_add

    .section .rsys_area, "awx", @progbits
    .p2align 12
area:
    .quad 0x31534e4953595352
    .long 1, 1, 1, 0
    .long funcs - area, funcs_end - area, strtab - area, strtab_end - strtab
    .long 0, 0
    .long rx_end - area, data - area, area_end - area, 0
    .quad AREA_VADDR
    .p2align 3
funcs:
    .quad TEXT_VADDR                /* dso_rw_add: first in .rsys_text */
    .long T_add - area, 0, 8, 0
funcs_end:
strtab:
    .asciz "dso_rw_add"
strtab_end:
    .p2align 4
stub:
    HOOK_STUB 0
    .p2align 4
T_add:
    mov r11d, 0
    call stub
    push rbp
    mov rbp, rsp
    sub rsp, 16
    jmp .Lbody
    .p2align 12
rx_end:
data:
    .quad 0, 0
    .p2align 12
area_end:

    .section .note.rocprofsys, "a", @note
    .p2align 2
    .long 11, 8, 1
    .asciz "RocProfSys"
    .p2align 2
    .quad AREA_VADDR

    .section .note.GNU-stack, "", @progbits
