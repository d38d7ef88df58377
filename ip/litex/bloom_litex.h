/* Firmware side of the bloom filter in a LiteX SoC (bloom_litex.py).
 *
 * Needs, on the include path: LiteX's generated/csr.h and generated/mem.h
 * (the SoC's), the package's regs/bloom_axis_regs.h (the register map, from
 * the same SystemRDL as the core's register block) and a bloom_config.h
 * (BloomPackage.config_header(): what firmware built for that package must
 * read from the core). Every function is static inline; nothing else is
 * linked.
 *
 * Registers: BLOOM_REGS->CONFIG, ->STATUS, ->COMMAND, ->FILL[i], ...
 * (bloom_axis_regs_t). The struct is packed, so that its layout is the map's;
 * through a pointer of the packed type GCC may split a word access into bytes
 * on a CPU without unaligned loads (RISC-V), and bloom_axis answers a write
 * without all four byte strobes with SLVERR. bloom_regs_t is the same struct
 * aligned to 4 bytes: every access is one 32-bit load or store.
 *
 * Streams: bloom_request() pushes one request into the front's request FIFO
 * (waiting while it is full); bloom_response() takes the oldest response
 * (waiting until there is one). Requests are answered in order.
 */
#ifndef BLOOM_LITEX_H
#define BLOOM_LITEX_H

#include <stdint.h>
#include <generated/csr.h>
#include <generated/mem.h>
#include "bloom_axis_regs.h"
#include "bloom_config.h"

typedef bloom_axis_regs_t __attribute__((aligned(4))) bloom_regs_t;
#define BLOOM_REGS ((volatile bloom_regs_t *)BLOOM_BASE)

#define BLOOM_OP_QUERY 0
#define BLOOM_OP_INSERT 1
#define BLOOM_OP_CLEAR 2
#define BLOOM_OP_DELETE 3

/* The first fixed register whose value differs from what this firmware was
 * built for (bloom_config.h), with both values; 0 when all match. */
struct bloom_mismatch {
    const char *reg;
    uint32_t expected, found;
};

static inline struct bloom_mismatch bloom_check(void)
{
    struct bloom_mismatch m = {0, 0, 0};
    volatile bloom_regs_t *r = BLOOM_REGS;
    const struct {
        const char *name;
        uint32_t found, expected;
    } fixed[] = {
        {"ID", r->ID, BLOOM_EXPECT_ID},
        {"VERSION", r->VERSION, BLOOM_EXPECT_VERSION},
        {"CONFIG", r->CONFIG, BLOOM_EXPECT_CONFIG},
        {"SEED_LO", r->SEED_LO, BLOOM_EXPECT_SEED_LO},
        {"SEED_HI", r->SEED_HI, BLOOM_EXPECT_SEED_HI},
        {"TIMING", r->TIMING, BLOOM_EXPECT_TIMING},
    };
    for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        if (fixed[i].found != fixed[i].expected) {
            m.reg = fixed[i].name;
            m.expected = fixed[i].expected;
            m.found = fixed[i].found;
            return m;
        }
    }
    return m;
}

/* Waits until the banks are empty and the core takes requests (after reset
 * the core sweeps its banks; after a clear likewise). */
static inline void bloom_wait_idle(void)
{
    while (BLOOM_REGS->STATUS & BLOOM_AXIS_REGS__STATUS__BUSY_bm) {
    }
}

static inline void bloom_request(uint64_t key, unsigned op, unsigned tag)
{
    while (!(bloom_status_read() & (1u << CSR_BLOOM_STATUS_REQ_READY_OFFSET))) {
    }
    bloom_key_write(key);
    bloom_request_write(((op & 3u) << CSR_BLOOM_REQUEST_OP_OFFSET) |
                        ((tag & 0xffu) << CSR_BLOOM_REQUEST_TAG_OFFSET));
}

/* Is a response waiting? */
static inline int bloom_response_ready(void)
{
    return (bloom_status_read() >> CSR_BLOOM_STATUS_RESP_VALID_OFFSET) & 1u;
}

/* The oldest response: bit 0 the hit, bits 15:8 the tag. */
static inline uint32_t bloom_response(void)
{
    uint32_t r;
    do {
        r = bloom_response_read();
    } while (!(r & (1u << CSR_BLOOM_RESPONSE_VALID_OFFSET)));
    bloom_pop_write(1);
    return ((r >> CSR_BLOOM_RESPONSE_HIT_OFFSET) & 1u) |
           (((r >> CSR_BLOOM_RESPONSE_TAG_OFFSET) & 0xffu) << 8);
}

/* One request, answered: the hit. */
static inline int bloom_op(uint64_t key, unsigned op)
{
    bloom_request(key, op, 0);
    return bloom_response() & 1u;
}

#endif /* BLOOM_LITEX_H */
