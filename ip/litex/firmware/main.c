/* Firmware that drives the bloom filter of a LiteX SoC and prints every
 * answer on the UART, one line each, for a person and for a program that
 * checks them against the golden model:
 *
 *   bloom firmware for NAME
 *   config ID 0x.. VERSION 0x.. CONFIG 0x.. SEED_LO 0x.. SEED_HI 0x.. TIMING 0x..
 *   insert I KEY HIT            every key of keys.h, in order (HIT: all k bits were set)
 *   query J KEY HIT             every probe of keys.h, in order
 *   fill B COUNT                every bank
 *   counters ops N inserts N hits N
 *   answers round-trip W BITS   the probes again, timed, one request at a time:
 *   answers streamed W BITS     and up to WINDOW requests in flight; answer J is
 *                               bit J%32 of word W = J/32 (hex)
 *   cycles round-trip N C       N queries took C cycles of timer0 (the sys clock)
 *   cycles streamed N C
 *   clear                       COMMAND.clear, STATUS polled until not busy
 *   query-cleared J KEY HIT     every probe again
 *   fill-cleared B COUNT
 *   reinsert I KEY HIT          the first REINSERT keys again
 *   clear-op HIT                a clear sent on the request stream (op 2)
 *   query-stream-cleared I KEY HIT
 *   done
 *
 * or, when the core is not the one this firmware was built for (bloom_config.h),
 *   ERROR: REG reads 0x.., this firmware was built for 0x.. (PACKAGE)
 * and nothing else. Numbers are decimal, keys and words hex.
 */
#include <stdint.h>
#include <generated/csr.h>
#include <generated/soc.h>

#include "bloom_litex.h"
#include "keys.h"

/* Requests in flight in the streamed run: what the front holds without a
 * response taken (generated/soc.h), at most 16. */
#define WINDOW (BLOOM_WINDOW < 16 ? BLOOM_WINDOW : 16)
#define REINSERT 8

static void put_char(char c)
{
    while (uart_txfull_read()) {
    }
    uart_rxtx_write(c);
}

static void put_str(const char *s)
{
    while (*s)
        put_char(*s++);
}

static void put_hex(uint32_t v, int digits)
{
    put_str("0x");
    for (int i = digits - 1; i >= 0; i--)
        put_char("0123456789abcdef"[(v >> (4 * i)) & 0xf]);
}

static void put_key(uint64_t k)
{
    put_hex((uint32_t)(k >> 32), 8);
    for (int i = 7; i >= 0; i--)
        put_char("0123456789abcdef"[((uint32_t)k >> (4 * i)) & 0xf]);
}

/* Decimal without a divide: rv32i (VexRiscv minimal) has none, and the
 * firmware links no libgcc. */
static void put_dec(uint32_t v)
{
    static const uint32_t powers[] = {1000000000u, 100000000u, 10000000u, 1000000u, 100000u,
                                      10000u,      1000u,      100u,      10u,      1u};
    int started = 0;
    for (unsigned i = 0; i < sizeof powers / sizeof powers[0]; i++) {
        char digit = '0';
        while (v >= powers[i]) {
            v -= powers[i];
            digit++;
        }
        if (digit != '0' || started || powers[i] == 1) {
            put_char(digit);
            started = 1;
        }
    }
}

static void line_key(const char *what, uint32_t i, uint64_t key, int hit)
{
    put_str(what);
    put_char(' ');
    put_dec(i);
    put_char(' ');
    put_key(key);
    put_char(' ');
    put_dec((uint32_t)hit);
    put_char('\n');
}

static void finish(void)
{
    for (;;) {
#ifdef CSR_SIM_FINISH_BASE
        sim_finish_finish_write(1);
#endif
    }
}

/* A trap (a bus error from an access the register block answered with
 * SLVERR, an illegal instruction) ends the run with its cause. */
void trap_handler(void)
{
    uint32_t cause, epc;
    __asm__ volatile("csrr %0, mcause" : "=r"(cause));
    __asm__ volatile("csrr %0, mepc" : "=r"(epc));
    put_str("ERROR: trap, mcause ");
    put_hex(cause, 8);
    put_str(" at mepc ");
    put_hex(epc, 8);
    put_char('\n');
    finish();
}

static uint32_t cycles_now(void)
{
    timer0_update_value_write(1);
    return timer0_value_read();
}

static uint32_t answers[(BLOOM_NUM_PROBES + 31) / 32];

static void put_answers(const char *what)
{
    for (uint32_t w = 0; w < (BLOOM_NUM_PROBES + 31) / 32; w++) {
        put_str("answers ");
        put_str(what);
        put_char(' ');
        put_dec(w);
        put_char(' ');
        put_hex(answers[w], 8);
        put_char('\n');
    }
}

static void expect_tag(uint32_t response, uint32_t tag)
{
    if (((response >> 8) & 0xff) != (tag & 0xff)) {
        put_str("ERROR: response tag ");
        put_dec((response >> 8) & 0xff);
        put_str(", request tag ");
        put_dec(tag & 0xff);
        put_char('\n');
        finish();
    }
}

static uint32_t query_round_trip(void)
{
    uint32_t t0 = cycles_now();
    for (uint32_t j = 0; j < BLOOM_NUM_PROBES; j++) {
        bloom_request(bloom_probes[j], BLOOM_OP_QUERY, j);
        uint32_t r = bloom_response();
        expect_tag(r, j);
        if (r & 1)
            answers[j / 32] |= 1u << (j % 32);
    }
    return t0 - cycles_now(); /* timer0 counts down */
}

static uint32_t query_streamed(void)
{
    uint32_t sent = 0, got = 0;
    uint32_t t0 = cycles_now();
    while (got < BLOOM_NUM_PROBES) {
        if (sent < BLOOM_NUM_PROBES && sent - got < WINDOW) {
            bloom_request(bloom_probes[sent], BLOOM_OP_QUERY, sent);
            sent++;
        } else {
            uint32_t r = bloom_response();
            expect_tag(r, got);
            if (r & 1)
                answers[got / 32] |= 1u << (got % 32);
            got++;
        }
    }
    return t0 - cycles_now();
}

static void put_cycles(const char *what, uint32_t cycles)
{
    put_str("cycles ");
    put_str(what);
    put_char(' ');
    put_dec(BLOOM_NUM_PROBES);
    put_char(' ');
    put_dec(cycles);
    put_char('\n');
}

static void clear_answers(void)
{
    for (uint32_t w = 0; w < (BLOOM_NUM_PROBES + 31) / 32; w++)
        answers[w] = 0;
}

static void put_fills(const char *what)
{
    for (uint32_t b = 0; b < BLOOM_PARAM_K; b++) {
        put_str(what);
        put_char(' ');
        put_dec(b);
        put_char(' ');
        put_dec(BLOOM_REGS->FILL[b] & BLOOM_AXIS_REGS__FILL__COUNT_bm);
        put_char('\n');
    }
}

int main(void)
{
    volatile bloom_regs_t *regs = BLOOM_REGS;

    timer0_en_write(0);
    timer0_load_write(0xffffffffu);
    timer0_reload_write(0xffffffffu);
    timer0_en_write(1);

    put_str("bloom firmware for " BLOOM_PACKAGE_NAME "\n");
    struct bloom_mismatch m = bloom_check();
    if (m.reg) {
        put_str("ERROR: ");
        put_str(m.reg);
        put_str(" reads ");
        put_hex(m.found, 8);
        put_str(", this firmware was built for ");
        put_hex(m.expected, 8);
        put_str(" (" BLOOM_PACKAGE_NAME ")\n");
        finish();
    }
    put_str("config ID ");
    put_hex(regs->ID, 8);
    put_str(" VERSION ");
    put_hex(regs->VERSION, 8);
    put_str(" CONFIG ");
    put_hex(regs->CONFIG, 8);
    put_str(" SEED_LO ");
    put_hex(regs->SEED_LO, 8);
    put_str(" SEED_HI ");
    put_hex(regs->SEED_HI, 8);
    put_str(" TIMING ");
    put_hex(regs->TIMING, 8);
    put_char('\n');
    /* After reset the core sweeps its banks before it takes requests. */
    bloom_wait_idle();

    for (uint32_t i = 0; i < BLOOM_NUM_KEYS; i++)
        line_key("insert", i, bloom_keys[i], bloom_op(bloom_keys[i], BLOOM_OP_INSERT));
    for (uint32_t j = 0; j < BLOOM_NUM_PROBES; j++)
        line_key("query", j, bloom_probes[j], bloom_op(bloom_probes[j], BLOOM_OP_QUERY));
    put_fills("fill");
    put_str("counters ops ");
    put_dec(regs->COUNTERS.OPS);
    put_str(" inserts ");
    put_dec(regs->COUNTERS.INSERTS);
    put_str(" hits ");
    put_dec(regs->COUNTERS.HITS);
    put_char('\n');

    /* An empty interval: what reading the timer itself costs. */
    uint32_t t0 = cycles_now();
    uint32_t overhead = t0 - cycles_now();
    clear_answers();
    uint32_t round_trip = query_round_trip() - overhead;
    put_answers("round-trip");
    clear_answers();
    uint32_t streamed = query_streamed() - overhead;
    put_answers("streamed");
    put_cycles("round-trip", round_trip);
    put_cycles("streamed", streamed);

    regs->COMMAND = BLOOM_AXIS_REGS__COMMAND__CLEAR_bm;
    bloom_wait_idle();
    put_str("clear\n");
    for (uint32_t j = 0; j < BLOOM_NUM_PROBES; j++)
        line_key("query-cleared", j, bloom_probes[j], bloom_op(bloom_probes[j], BLOOM_OP_QUERY));
    put_fills("fill-cleared");

    uint32_t again = BLOOM_NUM_KEYS < REINSERT ? BLOOM_NUM_KEYS : REINSERT;
    for (uint32_t i = 0; i < again; i++)
        line_key("reinsert", i, bloom_keys[i], bloom_op(bloom_keys[i], BLOOM_OP_INSERT));
    put_str("clear-op ");
    put_dec((uint32_t)bloom_op(0, BLOOM_OP_CLEAR));
    put_char('\n');
    for (uint32_t i = 0; i < again; i++)
        line_key("query-stream-cleared", i, bloom_keys[i], bloom_op(bloom_keys[i], BLOOM_OP_QUERY));
    put_str("done\n");
    finish();
    return 0;
}
