/*
 * Binary instrumentation, the agent's assembly (docs/instrumentation.md).
 *
 * rsys_instr_exit_tramp, rsys_instr_exit_tramp_landed: where a hooked function returns to.
 * enter_fn replaced its return address (at slot S) with the trampoline's landing, which jumps to
 * rsys_instr_exit_tramp_landed (version 2 areas), or with rsys_instr_exit_tramp itself (version 1),
 * so the function's `ret` arrives with rsp = S + 8 (a tail call chain arrives again with the same
 * rsp). It calls rsys_instr_exit(S + 8), which pops the thread's shadow stack, records FUNC_EXIT
 * and returns the real return address, and goes there with every general register, xmm0 and xmm1
 * as the function left them (x87 untouched): the C side is compiled with -mgeneral-regs-only. The
 * real address is stored into S itself (the returned function's slot, free now), so no register
 * is clobbered; how each trampoline leaves keeps the CPU's return predictor in step with the calls
 * above (below).
 *
 * rsys_instr_guarded(fn, arg): calls fn(arg) with the whole x87/SSE/AVX/AVX-512 state saved
 * (xsave with the mask and size the agent computed at init, else fxsave) for the rare slow paths
 * of the hooks that call into libc (ring attach, ring wrap, shadow stack allocation): the hooks
 * run between a function's caller and the function, where vector argument and return registers
 * are live.
 */
    .text

/* the two exit trampolines share all but how they leave, which follows each use of the macro */
.macro EXIT_TRAMP name
    .globl \name
    .hidden \name
    .type \name, @function
    .p2align 4
\name:
    /* no CFI: an unwinder must never walk through here (the agent unhooks before it does) */
    subq $8, %rsp               /* rsp = S: will hold the real return address */
    pushq %rax
    pushq %rcx
    pushq %rdx
    pushq %rsi
    pushq %rdi
    pushq %r8
    pushq %r9
    pushq %r10
    pushq %r11                  /* rsp = S - 72, 16-byte aligned (S + 8 was) */
    subq $32, %rsp
    movdqu %xmm0, 0(%rsp)
    movdqu %xmm1, 16(%rsp)
    leaq 112(%rsp), %rdi        /* S + 8: the stack pointer after the function's ret */
    call rsys_instr_exit
    movq %rax, 104(%rsp)        /* into S */
    movdqu 0(%rsp), %xmm0
    movdqu 16(%rsp), %xmm1
    addq $32, %rsp
    popq %r11
    popq %r10
    popq %r9
    popq %r8
    popq %rdi
    popq %rsi
    popq %rdx
    popq %rcx
    popq %rax
.endm

    /* Reached by the function's ret itself (version 1 areas): the return predictor's entry for
     * the real address was used up by that mispredicted ret, so a `ret` here would pop the
     * caller's entry and mispredict every return above. Jump instead; S now lies in the red
     * zone, safe from signals. */
    EXIT_TRAMP rsys_instr_exit_tramp
    leaq 8(%rsp), %rsp
    jmp *-8(%rsp)
    .size rsys_instr_exit_tramp, .-rsys_instr_exit_tramp

    /* Reached through a trampoline's landing (version 2 areas): the function's ret consumed the
     * landing's entry, so the entry below it, pushed by the call of the function, is the real
     * return address, and a `ret` is predicted right. */
    EXIT_TRAMP rsys_instr_exit_tramp_landed
    ret
    .size rsys_instr_exit_tramp_landed, .-rsys_instr_exit_tramp_landed

    .globl rsys_instr_guarded
    .hidden rsys_instr_guarded
    .type rsys_instr_guarded, @function
    .p2align 4
rsys_instr_guarded:
    .cfi_startproc
    pushq %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    movq %rsp, %rbp
    .cfi_def_cfa_register %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    .cfi_offset %rbx, -24
    .cfi_offset %r12, -32
    .cfi_offset %r13, -40
    .cfi_offset %r14, -48
    movq %rdi, %r12             /* fn */
    movq %rsi, %r13             /* arg */
    movl rsys_instr_xsave_size(%rip), %eax
    subq %rax, %rsp
    andq $-64, %rsp
    movl rsys_instr_xsave_mask(%rip), %r14d
    testl %r14d, %r14d
    jz 1f
    xorl %eax, %eax             /* the xsave header (bytes 512-575) must start zeroed */
    movq %rax, 512(%rsp)
    movq %rax, 520(%rsp)
    movq %rax, 528(%rsp)
    movq %rax, 536(%rsp)
    movq %rax, 544(%rsp)
    movq %rax, 552(%rsp)
    movq %rax, 560(%rsp)
    movq %rax, 568(%rsp)
    movl %r14d, %eax
    xorl %edx, %edx
    xsave64 (%rsp)
    movq %r13, %rdi
    call *%r12
    movq %rax, %rbx
    movl %r14d, %eax
    xorl %edx, %edx
    xrstor64 (%rsp)
    jmp 2f
1:  fxsave64 (%rsp)
    movq %r13, %rdi
    call *%r12
    movq %rax, %rbx
    fxrstor64 (%rsp)
2:  movq %rbx, %rax
    leaq -32(%rbp), %rsp
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    .cfi_def_cfa %rsp, 8
    ret
    .cfi_endproc
    .size rsys_instr_guarded, .-rsys_instr_guarded

    .section .note.GNU-stack,"",@progbits
