//! The core's timing contract as a value (docs/core.md, "Timing"): what a
//! driver, a checker or a report needs to know about cycles, computed from
//! the configuration. The co-simulation's checker holds the generated
//! Verilog to exactly these numbers.

use bloom_params::CoreParams;
use serde::Serialize;

use crate::response_fifo::RESPONSE_FIFO_DEPTH;

/// Cycles from a request accepted to its response presented (no backpressure).
pub const LATENCY: u32 = 7;
/// Cycles from `rb_req` to `rb_valid` and `rb_data`.
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
}

impl Timing {
    /// The timing of a core with these parameters.
    pub fn of(params: &CoreParams) -> Timing {
        Timing {
            latency: LATENCY,
            readback_latency: READBACK_LATENCY,
            clear_cycles: clear_cycles(params.bank_bits as usize),
            response_fifo_depth: RESPONSE_FIFO_DEPTH as u32,
            fill_latency: LATENCY,
            clear_fill_latency: LATENCY - 1,
        }
    }
}

/// Cycles req_ready stays low after a clear is accepted: the clear reaches the
/// write stage in 3 cycles and then writes one address of every bank per cycle.
pub fn clear_cycles(bank_bits: usize) -> u32 {
    (1u32 << bank_bits) + 3
}
