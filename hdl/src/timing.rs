//! The core's timing contract as a value (docs/core.md, "Timing"): what a
//! driver, a checker or a report needs to know about cycles, computed from
//! the configuration. The co-simulation's checker holds the generated
//! Verilog to exactly these numbers.

use bloom_params::CoreParams;
use serde::Serialize;

use crate::core::request_line::delay_of;
use crate::core::response_fifo::depth_for;

/// Cycles from a request accepted to its response presented (no backpressure), in a
/// core without a request line (H3, CRC, SPN); a Feistel core's request line
/// (core/request_line.rs) adds its cycles to this and to every figure below that
/// counts from a request's or a readback's acceptance.
pub const LATENCY: u32 = 7;
/// Cycles from `rb_req` to `rb_valid` and `rb_data`, without a request line.
pub const READBACK_LATENCY: u32 = 6;

/// Cycles are counted as in docs/core.md: cycle t is the clock period that
/// ends with the sampling edge, and "accepted in cycle t" means `req_valid`
/// and `req_ready` were both high in cycle t.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Timing {
    /// A request accepted in cycle t has `resp_valid` high in cycle t + latency
    /// when the response channel is not backpressured.
    pub latency: u32,
    /// `rb_req` high in cycle t gives `rb_valid` and `rb_data` in cycle t + readback_latency.
    pub readback_latency: u32,
    /// After a clear accepted in cycle t, `busy` is high and `req_ready` low in
    /// cycles t+1 ..= t+clear_cycles (2^b + 3).
    pub clear_cycles: u32,
    /// Responses accepted and not yet taken, at most; `req_ready` is low while
    /// this many are outstanding.
    pub response_fifo_depth: u32,
    /// An insert accepted in cycle t is counted by `fill_count` from cycle t + fill_latency on.
    pub fill_latency: u32,
    /// After a clear accepted in cycle t, `fill_count` reads 0 from cycle t + clear_fill_latency on.
    pub clear_fill_latency: u32,
    /// An operation accepted in cycle t takes effect in the banks at the end of
    /// cycle t + commit_latency (a clear: starts its sweep then, address n at
    /// the end of t + commit_latency + n); a reset in any of the cycles
    /// t+1 ..= t+commit_latency-1 cancels it, and it has no response.
    pub commit_latency: u32,
    /// After a reset whose last cycle is r, `busy` is high and `req_ready` low in
    /// cycles r+1 ..= r+reset_busy_cycles (2^b + 7) while the core recounts its
    /// banks; `busy` is high from the cycle after reset first rose.
    pub reset_busy_cycles: u32,
    /// After a reset whose last cycle is r, `fill_count` of a bank in cycle c counts
    /// the 1 bits at its addresses below c - r - recount_fill_latency + 1 (so 0 up to
    /// cycle r + recount_fill_latency - 1, and every 1 bit from r + reset_busy_cycles + 1 on).
    pub recount_fill_latency: u32,
    /// A scrub whose last slot (docs/contract.md §5.2) is cycle s has `scrub_busy` low and
    /// shows its result on `scrub_mismatch` from cycle s + scrub_end_latency.
    pub scrub_end_latency: u32,
}

impl Timing {
    /// The timing of a core with these parameters.
    pub fn of(params: &CoreParams) -> Timing {
        let counting = params.counter_bits > 1;
        let count_delay = if counting { COUNTING_COUNT_DELAY } else { 0 };
        // The request line's cycles: everything that travels through it is later by
        // them; the recount after a reset and the scrub's slots do not (they start
        // behind the line).
        let line = delay_of(params.hash);
        let lined = line as u32;
        Timing {
            latency: LATENCY + lined,
            readback_latency: READBACK_LATENCY + lined,
            clear_cycles: clear_cycles(params.bank_bits as usize) + lined,
            response_fifo_depth: depth_for(line) as u32,
            fill_latency: LATENCY + count_delay + lined,
            clear_fill_latency: LATENCY - 1 + count_delay + lined,
            commit_latency: lined
                + if counting {
                    COUNTING_COMMIT_LATENCY
                } else {
                    COMMIT_LATENCY
                },
            reset_busy_cycles: reset_busy_cycles(params.bank_bits as usize),
            recount_fill_latency: RECOUNT_FILL_LATENCY,
            scrub_end_latency: SCRUB_END_LATENCY + count_delay,
        }
    }
}

/// The last scrub slot in cycle s: its read counted in c6 (s + 6), the count registered
/// at the end of s + 7, compared in two registered steps (s + 8, s + 9), the result
/// loaded at the end of s + 9 (core/scrub.rs: finish in s + 2 + 7).
pub const SCRUB_END_LATENCY: u32 = 10;

/// The write stage c4: where an insert writes and a clear's sweep starts.
pub const COMMIT_LATENCY: u32 = 4;

/// The counting core's write-back stage c7 (counting/partition.rs): its read-modify-write
/// writes the counters three stages after the plain core's c4, and its clear sweep with it.
pub const COUNTING_COMMIT_LATENCY: u32 = 7;

/// The counting core counts a change one cycle later than the plain core (from registers
/// of its write-back stage): its fill and saturated counts after an operation or a clear.
/// The recount after a reset, and every other figure, are the plain core's.
pub const COUNTING_COUNT_DELAY: u32 = 1;

/// Cycles from a reset's last cycle to the first cycle whose `fill_count` counts
/// address 0 of the recount: the sweep starts as a clear accepted in that cycle
/// would (its address in c2 four cycles later), and the bit is counted at c6.
pub const RECOUNT_FILL_LATENCY: u32 = 9;

/// Cycles `busy` stays high after a reset's last cycle: the sweep of 2^b
/// addresses, started like a clear's (3 cycles), and the last slot's way from c2
/// to its count (4 cycles).
pub fn reset_busy_cycles(bank_bits: usize) -> u32 {
    (1u32 << bank_bits) + 7
}

/// Cycles req_ready stays low after a clear is accepted: the clear reaches the
/// write stage in 3 cycles and then writes one address of every bank per cycle.
pub fn clear_cycles(bank_bits: usize) -> u32 {
    (1u32 << bank_bits) + 3
}
