//! Cycle-exact checking of a core's handshake log against the documented
//! timing and the golden model's responses.
//!
//! The reference timing model (from hdl's documentation of `bloom_core`):
//! - req_ready(t) = no clear window covers t and fewer than
//!   `response_fifo_depth` responses are outstanding at the start of t
//!   (a clear accepted in a blocks cycles a+1 ..= a+clear_cycles);
//! - resp_valid(t) = the oldest outstanding response was accepted in a cycle
//!   a with a + latency <= t (so with a consumer that never stalls, every
//!   response appears exactly `latency` cycles after its request, and a
//!   stalled response is presented from the cycle after the one before it
//!   was taken);
//! - responses come in acceptance order, with the request's tag and the hit
//!   the sequential golden model gives.
//!
//! Every cycle of the log is compared with this model; the model's state is
//! advanced with what the core actually did (accepts and pops), so one fault
//! is reported where it happens instead of cascading. The first mismatch names
//! its cycle and the index of the operation it concerns.

use std::collections::VecDeque;
use std::fmt;

use crate::model::StreamOutput;
use crate::traffic::Request;

/// One disagreement between the core and the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub cycle: u64,
    /// Index (from 0, in acceptance order) of the operation concerned, if any.
    pub op_index: Option<u64>,
    pub what: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.op_index {
            Some(i) => write!(f, "cycle {}, operation {}: {}", self.cycle, i, self.what),
            None => write!(f, "cycle {}: {}", self.cycle, self.what),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    op_index: u64,
    accept: u64,
    op: u8,
    hit: bool,
    tag: u8,
}

/// Keeps the reference state between batches of a run.
#[derive(Clone, Debug)]
pub struct Checker {
    pub timing: hdl::Timing,
    outstanding: VecDeque<Pending>,
    /// Last cycle of the current clear window (req_ready low), if any.
    clear_until: Option<u64>,
    next_op: u64,
    /// Cycle the next log must start at (logs must be contiguous unless
    /// `skip_to` says otherwise).
    next_cycle: Option<u64>,
    pub mismatches: u64,
    pub first: Vec<Mismatch>,
    pub keep: usize,
    pub responses: u64,
    pub hits: u64,
    /// Responses to queries (op 0 and 3) and how many of them hit.
    pub queries: u64,
    pub query_hits: u64,
}

impl Checker {
    pub fn new(timing: hdl::Timing) -> Checker {
        Checker {
            timing,
            outstanding: VecDeque::new(),
            clear_until: None,
            next_op: 0,
            next_cycle: None,
            mismatches: 0,
            first: Vec::new(),
            keep: 20,
            responses: 0,
            hits: 0,
            queries: 0,
            query_hits: 0,
        }
    }

    pub fn report(&mut self, m: Mismatch) {
        self.mismatches += 1;
        if self.first.len() < self.keep {
            self.first.push(m);
        }
    }

    /// Operations accepted so far.
    pub fn accepted(&self) -> u64 {
        self.next_op
    }
    pub fn outstanding(&self) -> usize {
        self.outstanding.len()
    }
    /// The last cycle of the clear window, if one is open or was the latest.
    pub fn clear_until(&self) -> Option<u64> {
        self.clear_until
    }

    /// Cycles passed outside a checked log (idle, readback): allowed only with
    /// nothing outstanding.
    pub fn skip_to(&mut self, cycle: u64) {
        self.next_cycle = Some(cycle);
    }

    /// Checks one log. `requests[i]` and `golden_hits[i]` describe the log's
    /// i-th item; `out` is what the core did with them.
    pub fn check(&mut self, requests: &[Request], golden_hits: &[bool], out: &StreamOutput) {
        if let Some(expect) = self.next_cycle {
            if out.start_cycle != expect {
                self.report(Mismatch {
                    cycle: out.start_cycle,
                    op_index: None,
                    what: format!("log starts at cycle {}, expected {expect} (harness error)", out.start_cycle),
                });
            }
        }
        self.next_cycle = Some(out.start_cycle + out.cycles);
        let mut item = 0usize;
        let mut resp = 0usize;
        for c in 0..out.cycles as usize {
            let cycle = out.start_cycle + c as u64;
            let f = out.flags[c];
            let (present, ready, valid, taken) = (f & 1 != 0, f & 2 != 0, f & 4 != 0, f & 8 != 0);
            let response = if valid && taken {
                let (rcycle, data) = if resp < out.n_responses { out.response(resp) } else { (u64::MAX, &[][..]) };
                resp += 1;
                if rcycle != cycle || data.len() < 2 {
                    self.report(Mismatch {
                        cycle,
                        op_index: None,
                        what: "response log out of step with the cycle log (harness error)".into(),
                    });
                    None
                } else {
                    Some((data[0] & 1 == 1, data[1] as u8))
                }
            } else {
                None
            };
            let accepted = if present && ready {
                if item >= requests.len() {
                    self.report(Mismatch { cycle, op_index: None, what: "accepted more items than given (harness error)".into() });
                    None
                } else {
                    if out.accept_cycle.get(item) != Some(&cycle) {
                        self.report(Mismatch {
                            cycle,
                            op_index: Some(self.next_op),
                            what: "accept log out of step with the cycle log (harness error)".into(),
                        });
                    }
                    item += 1;
                    Some((requests[item - 1], golden_hits[item - 1]))
                }
            } else {
                None
            };
            self.handshakes(cycle, false, ready, valid, taken, response, accepted);
        }
    }

    /// One cycle of both channels against the reference: `req_ready` (which a
    /// readback in this cycle also holds low), `resp_valid`, the response
    /// taken (hit, tag) if any, and the request accepted (with its golden hit).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn handshakes(
        &mut self,
        cycle: u64,
        readback: bool,
        ready: bool,
        valid: bool,
        taken: bool,
        response: Option<(bool, u8)>,
        accepted: Option<(Request, bool)>,
    ) {
        let t = self.timing;
        let clearing = self.clear_until.is_some_and(|u| cycle <= u);
        let expect_ready = !readback && !clearing && (self.outstanding.len() as u32) < t.response_fifo_depth;
        if ready != expect_ready {
            self.report(Mismatch {
                cycle,
                op_index: Some(self.next_op),
                what: format!(
                    "req_ready is {}, expected {} ({} responses outstanding of {}, {}{})",
                    ready as u8,
                    expect_ready as u8,
                    self.outstanding.len(),
                    t.response_fifo_depth,
                    if clearing { "inside a clear window" } else { "no clear in progress" },
                    if readback { ", a readback in this cycle" } else { "" }
                ),
            });
        }
        let expect_valid = self.outstanding.front().is_some_and(|p| p.accept + t.latency as u64 <= cycle);
        if valid != expect_valid {
            let head = self.outstanding.front().copied();
            self.report(Mismatch {
                cycle,
                op_index: head.map(|p| p.op_index),
                what: match head {
                    Some(p) => format!(
                        "resp_valid is {}, expected {} (oldest outstanding accepted in cycle {}, latency {})",
                        valid as u8, expect_valid as u8, p.accept, t.latency
                    ),
                    None => format!("resp_valid is {} with no request outstanding", valid as u8),
                },
            });
        }
        if valid && taken {
            if let Some((hit, tag)) = response {
                if let Some(p) = self.outstanding.pop_front() {
                    self.responses += 1;
                    self.hits += hit as u64;
                    if p.op != 1 && p.op != 2 {
                        self.queries += 1;
                        self.query_hits += hit as u64;
                    }
                    if hit != p.hit || tag != p.tag {
                        self.report(Mismatch {
                            cycle,
                            op_index: Some(p.op_index),
                            what: format!(
                                "response (hit {}, tag {:#04x}) to {} accepted in cycle {}, expected (hit {}, tag {:#04x})",
                                hit as u8,
                                tag,
                                op_name(p.op),
                                p.accept,
                                p.hit as u8,
                                p.tag
                            ),
                        });
                    }
                } else {
                    self.report(Mismatch { cycle, op_index: None, what: "a response with no request outstanding".into() });
                }
            }
        }
        if let Some((r, hit)) = accepted {
            self.outstanding.push_back(Pending { op_index: self.next_op, accept: cycle, op: r.op, hit, tag: r.tag });
            if r.op == 2 {
                self.clear_until = Some(cycle + t.clear_cycles as u64);
            }
            self.next_op += 1;
        }
    }
}

/// Checks every port of a core in every cycle against the reference, owning
/// the golden model: the handshakes as [`Checker`] does, and besides them
/// `busy` (high exactly in clear windows), every readback (its latency and
/// its bit, the golden bit after every operation accepted before it; with
/// `rb_write`, the golden model's bit write follows it in sequence) and
/// `fill_count` in every cycle (the golden fill `fill_latency` cycles after
/// each insert, 0 `clear_fill_latency` cycles after a clear). For logs of
/// every port (the rust-hdl simulator, or Verilator cycle by cycle).
pub struct CycleChecker {
    pub checker: Checker,
    pub golden: golden::PartitionedFilter,
    /// (accept cycle, op, fill after it) of every operation accepted.
    fills: Vec<(u64, u8, Vec<u32>)>,
    /// (issue cycle, expected bit or None when unspecified) of readbacks in flight.
    readbacks: VecDeque<(u64, Option<bool>)>,
}

impl CycleChecker {
    pub fn new(timing: hdl::Timing, params: hdl::CoreParams) -> CycleChecker {
        let golden = golden::PartitionedFilter::new(params);
        let empty = golden.fill();
        CycleChecker { checker: Checker::new(timing), golden, fills: vec![(0, 0, empty)], readbacks: VecDeque::new() }
    }

    /// Starts from `golden` (a preloaded image) instead of empty banks.
    pub fn with_golden(timing: hdl::Timing, golden: golden::PartitionedFilter) -> CycleChecker {
        let fill = golden.fill();
        CycleChecker { checker: Checker::new(timing), golden, fills: vec![(0, 0, fill)], readbacks: VecDeque::new() }
    }

    /// One cycle: `get(name)` reads an input or output port of that cycle.
    pub fn cycle(&mut self, cycle: u64, get: &dyn Fn(&str) -> u128) {
        let t = self.checker.timing;
        let bit = |name: &str| get(name) & 1 == 1;
        let clearing = self.checker.clear_until.is_some_and(|u| cycle <= u);
        if bit("busy") != clearing {
            self.checker.report(Mismatch {
                cycle,
                op_index: None,
                what: format!("busy is {}, expected {} (clear window)", bit("busy") as u8, clearing as u8),
            });
        }
        // fill_count: the last operation at least clear_fill_latency cycles back, if a
        // clear exactly then, else the last at least fill_latency cycles back.
        let latest = |lag: u32| self.fills.iter().rev().find(|(c, _, _)| *c + lag as u64 <= cycle);
        let fill = match latest(t.clear_fill_latency) {
            Some((c, 2, f)) if *c + t.clear_fill_latency as u64 == cycle => f,
            _ => &latest(t.fill_latency).unwrap_or(&self.fills[0]).2,
        };
        let bank = get("fill_bank") as usize;
        let want = fill.get(bank).copied().unwrap_or(0) as u128;
        if get("fill_count") != want {
            self.checker.report(Mismatch {
                cycle,
                op_index: None,
                what: format!("fill_count of bank {bank} is {}, expected {want}", get("fill_count")),
            });
        }
        // Readback.
        let readback = bit("rb_req");
        if bit("rb_valid") {
            match self.readbacks.pop_front() {
                Some((issued, expect)) if issued + t.readback_latency as u64 == cycle => {
                    if expect.is_some_and(|b| b != bit("rb_data")) {
                        self.checker.report(Mismatch {
                            cycle,
                            op_index: None,
                            what: format!("rb_data is {} for the readback of cycle {issued}, golden {}", bit("rb_data") as u8, !bit("rb_data") as u8),
                        });
                    }
                }
                other => self.checker.report(Mismatch {
                    cycle,
                    op_index: None,
                    what: format!("rb_valid with no readback issued {} cycles before ({other:?})", t.readback_latency),
                }),
            }
        } else if let Some((issued, _)) = self.readbacks.front() {
            if issued + t.readback_latency as u64 <= cycle {
                let issued = *issued;
                self.readbacks.pop_front();
                self.checker.report(Mismatch { cycle, op_index: None, what: format!("no rb_valid for the readback of cycle {issued}") });
            }
        }
        if readback {
            let k = self.golden.config().k as usize;
            let (bank, addr) = (get("rb_bank") as usize, get("rb_addr") as u32 & (self.golden.config().bank_size() - 1));
            let expect = (!clearing).then(|| bank < k && self.golden.bit(bank, addr));
            self.readbacks.push_back((cycle, expect));
            // A bit write: after the read, in sequence with the requests; dropped while
            // busy or in reset, and for a bank >= k (docs/core.md).
            if bit("rb_write") && !clearing && !bit("reset") && bank < k {
                self.golden.write_bit(bank, addr, bit("rb_wdata")).expect("bank and address are in range");
                self.fills.push((cycle, 1, self.golden.fill()));
            }
        }
        // The channels.
        let (ready, valid, taken) = (bit("req_ready"), bit("resp_valid"), bit("resp_ready"));
        let response = (valid && taken).then(|| (bit("resp_hit"), get("resp_tag") as u8));
        let accepted = if bit("req_valid") && ready {
            let r = Request { op: get("req_op") as u8, key: get("req_key"), tag: get("req_tag") as u8 };
            let hit = self.golden.apply(golden::Op::decode(r.op, r.key)).unwrap_or(false);
            self.fills.push((cycle, r.op & 3, self.golden.fill()));
            Some((r, hit))
        } else {
            None
        };
        self.checker.handshakes(cycle, readback, ready, valid, taken, response, accepted);
    }

    /// Responses and readbacks still expected.
    pub fn idle(&self) -> bool {
        self.checker.outstanding() == 0 && self.readbacks.is_empty()
    }
}

pub fn op_name(op: u8) -> &'static str {
    match op {
        0 => "query",
        1 => "insert",
        2 => "clear",
        _ => "reserved op 3 (query)",
    }
}
