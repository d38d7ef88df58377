//! The groups of signals several of the executor's blocks share, declared once
//! as port bundles (`crate::bundle!`): each as its producer sees it, and its
//! mirror for the blocks that read it. (`W` is unused: every bundle takes it.)

use rust_hdl::prelude::*;

crate::bundle! {
    /// The header of the frame being executed, latched when it is taken (`FrameDecode`).
    FrameHeader / FrameHeaderIn {
        /// SEQ.
        seq: Out Bits<8>,
        /// OP.
        op: Out Bits<8>,
        /// LEN, payload bytes.
        len: Out Bits<8>,
    }
}

crate::bundle! {
    /// The decode of the frame receiver's header (`OpDecode`): what the operation
    /// is, and whether the length fits it.
    OpFlags / OpFlagsIn {
        /// Query, insert or delete: one key.
        single: Out bool,
        /// Query, insert or delete batch.
        batch: Out bool,
        clear: Out bool,
        stats: Out bool,
        /// Dump or dump counters.
        dump: Out bool,
        config_frame: Out bool,
        /// Stats, dump, config, dump counters: executed every time, never replayed.
        info: Out bool,
        /// Write bits or write counters.
        write: Out bool,
        /// The operation does not fit the board's kind of filter (WRONG_KIND).
        wrong_kind: Out bool,
        /// Delete or delete batch: op 3 on the core.
        delete: Out bool,
        /// Dump counters.
        cdump: Out bool,
        /// Write counters.
        cwrite: Out bool,
        /// Image complete, zero counters or scrub: executed here, no core operation.
        local: Out bool,
        /// A scrub request to a board built without the scrub (NO_SCRUB).
        no_scrub: Out bool,
        /// The answer has no payload (clear, image complete, zero counters).
        silent: Out bool,
        /// LEN is one key; a whole number of keys, 1 to max_batch; 0; 3 (dump);
        /// more than 3 (write).
        len_is_key: Out bool,
        len_batch_ok: Out bool,
        len_zero: Out bool,
        len_dump_ok: Out bool,
        len_write_ok: Out bool,
    }
}

crate::bundle! {
    /// Which branch Decode takes (`FrameDecode`), valid in Decode: at most one holds.
    Dispatch / DispatchIn {
        /// A batch: as many keys as LEN holds.
        batch: Out bool,
        /// A stats frame with no payload: the stats are answered.
        stats: Out bool,
        /// A config frame with no payload: the configuration block is answered.
        config_block: Out bool,
        /// A dump or dump counters: three argument bytes.
        dump: Out bool,
        /// A write bits or write counters: three argument bytes, then data.
        write: Out bool,
    }
}

crate::bundle! {
    /// The checks of a dump's or a write's arguments (`ArgumentCheck`), valid
    /// three cycles after the last argument byte is loaded.
    ArgumentChecks / ArgumentChecksIn {
        /// Dump: bytes from the address to the end of the bank, at most 128.
        dump_len: Out Bits<8>,
        /// Dump: the bank exists and the address is in it, a multiple of 8.
        dump_ok: Out bool,
        /// Dump counters: counters from the address to the end of the bank, at most 128.
        cdump_len: Out Bits<8>,
        /// Dump counters (and write counters): the bank exists and the address is in it.
        cdump_ok: Out bool,
        /// Write bits: the data bytes end inside the bank.
        write_fits: Out bool,
        /// Write counters: the data bytes end inside the bank.
        cwrite_fits: Out bool,
    }
}

crate::bundle! {
    /// Where a walk over a bank stands (`BankPort`): the dump's, the writes' and
    /// the fills' registers.
    Walk / WalkIn {
        /// The bank read or written (the core's rb_bank and fill_bank).
        bank: Out Bits<8>,
        /// Bits of the current byte read or written.
        bitcnt: Out Bits<4>,
        /// The byte being assembled (dump) or written (write bits), or the counter.
        byte: Out Bits<8>,
        /// Cycles waited for the fill counters.
        wait: Out Bits<5>,
    }
}
