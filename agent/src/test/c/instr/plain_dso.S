/*
 * A plain shared library for the runtime-plan test: instr_runtime_test plans its function as a
 * second module of the plan (plan_gen.c), dlopens it, and the agent applies that part of the plan
 * after the dlopen.
 *   dso_frame(a, b) -> a + b      push rbp; mov rbp, rsp; sub rsp, 16
 */
    .intel_syntax noprefix
#include "instr_asm.inc"
    .text
    .globl dso_frame
    FRAME_ADD dso_frame

    .section .note.GNU-stack, "", @progbits
