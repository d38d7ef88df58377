//! The inputs other than the request channel, packed into one word per cycle
//! for the streaming path (`side_in`), and the outputs other than the two
//! handshake flags (`side_out`). The field order is the port table's; the
//! shifts are fixed here, in one place.

/// (port, shift) of the inputs packed into a `side_in` word.
pub const INPUTS: [(&str, u32); 8] = [
    ("reset", 0),
    ("rb_req", 1),
    ("rb_bank", 2),
    ("rb_addr", 6),
    ("fill_bank", 22),
    ("rb_write", 26),
    ("rb_wdata", 27),
    ("scrub_req", 36),
];
/// (port, shift) of the outputs packed into a `side_out` word.
/// `scrub_mismatch` (16 bits) gets the word's last 9 bits: banks 0..=8 are seen here
/// (the per-cycle port path, [`crate::checker::Checker::cycle_ports`], sees all 16).
pub const OUTPUTS: [(&str, u32); 8] = [
    ("busy", 0),
    ("rb_valid", 1),
    ("rb_data", 2),
    ("resp_hit", 3),
    ("resp_tag", 4),
    ("fill_count", 12),
    ("scrub_busy", 54),
    ("scrub_mismatch", 55),
];
/// The bits of `scrub_mismatch` a `side_out` word holds.
pub const SCRUB_MISMATCH_SEEN: u16 = 0x1ff;
/// A counting core's further inputs and outputs (counter_bits > 1), packed after those.
pub const COUNTING_INPUTS: [(&str, u32); 1] = [("counter_wdata", 28)];
pub const COUNTING_OUTPUTS: [(&str, u32); 2] = [("counter_saturated", 29), ("counter_rdata", 46)];

pub const RESET: u64 = 1;
pub const RB_REQ: u64 = 1 << 1;
pub const SCRUB_REQ: u64 = 1 << 36;

/// A readback of (bank, address), which with `write: Some(v)` also writes: the bit
/// v & 1 (`rb_wdata`), in a counting core the counter v (`counter_wdata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub bank: u8,
    pub addr: u16,
    pub write: Option<u8>,
}

impl Access {
    pub fn read(bank: u8, addr: u16) -> Access {
        Access {
            bank,
            addr,
            write: None,
        }
    }
}

/// A `side_in` word.
pub fn input(reset: bool, access: Option<Access>, fill_bank: u8) -> u64 {
    let (rb_req, bank, addr, write, wdata) = match access {
        Some(a) => (
            1u64,
            a.bank as u64 & 15,
            a.addr as u64,
            a.write.is_some() as u64,
            a.write.unwrap_or(0) as u64,
        ),
        None => (0, 0, 0, 0, 0),
    };
    reset as u64
        | rb_req << 1
        | bank << 2
        | addr << 6
        | ((fill_bank as u64 & 15) << 22)
        | write << 26
        | (wdata & 1) << 27
        | (wdata & 0xff) << 28
}
