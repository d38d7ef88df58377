/* Start-up of the bloom firmware: booted straight from the integrated ROM
 * (no BIOS). Sets the stack at the top of the SRAM, the trap vector, copies
 * .data from the ROM, zeroes .bss and calls main. */
    .section .text.start, "ax"
    .global _start
_start:
    la sp, _fstack
    la t0, trap_entry
    csrw mtvec, t0
    la a0, _fdata
    la a1, _edata
    la a2, _fdata_rom
1:  bgeu a0, a1, 2f
    lw t0, 0(a2)
    sw t0, 0(a0)
    addi a0, a0, 4
    addi a2, a2, 4
    j 1b
2:  la a0, _fbss
    la a1, _ebss
3:  bgeu a0, a1, 4f
    sw zero, 0(a0)
    addi a0, a0, 4
    j 3b
4:  call main
5:  j 5b

    .align 4
trap_entry:
    la sp, _fstack
    call trap_handler
6:  j 6b
