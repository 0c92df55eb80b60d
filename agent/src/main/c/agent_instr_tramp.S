/*
 * Binary instrumentation, the agent's assembly (docs/instrumentation.md).
 *
 * rsys_instr_exit_tramp: where a hooked function returns to. enter_fn replaced its return address
 * (at slot S) with this address, so the function's `ret` lands here with rsp = S + 8 (a tail call
 * chain jumps here again with the same rsp). It calls rsys_instr_exit(S + 8), which pops the
 * thread's shadow stack, records FUNC_EXIT and returns the real return address, and goes there
 * with every general register, xmm0 and xmm1 as the function left them (x87 untouched): the C
 * side is compiled with -mgeneral-regs-only. The real address is stored into S itself (the
 * returned function's slot, free now) and reached with an indirect jump through it once rsp is
 * back at S + 8 (S is then in the red zone), so no register is clobbered and the return stack
 * buffer stays in step with the calls above.
 *
 * rsys_instr_guarded(fn, arg): calls fn(arg) with the whole x87/SSE/AVX/AVX-512 state saved
 * (xsave with the mask and size the agent computed at init, else fxsave) for the rare slow paths
 * of the hooks that call into libc (ring attach, ring wrap, shadow stack allocation): the hooks
 * run between a function's caller and the function, where vector argument and return registers
 * are live.
 */
    .text

    .globl rsys_instr_exit_tramp
    .hidden rsys_instr_exit_tramp
    .type rsys_instr_exit_tramp, @function
    .p2align 4
rsys_instr_exit_tramp:
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
    /* to the real address without a `ret`, which would pop the caller's return-stack-buffer
     * entry and mispredict every return above; S now lies in the red zone, safe from signals */
    leaq 8(%rsp), %rsp
    jmp *-8(%rsp)
    .size rsys_instr_exit_tramp, .-rsys_instr_exit_tramp

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
