//! Hash unit of one partition. H3 and CRC: `addr = (M * key) ^ c` over GF(2) (see
//! `hash_matrix`). SPN: the part of the network its address needs, registered after
//! R - 2 rounds (hash/spn.rs, `SpnNetwork::unit_verilog`). Feistel: bits p b .. p b + b - 1
//! of the core's one network's blocks (`stream`, hash/feistel.rs), no logic and no
//! register: the network is the control's, and `key` is unread. The rest of this
//! header is the affine families' (whose units leave `stream` unread).
//!
//! H3 and CRC: Each address bit is an XOR tree over the key bits its column
//! selects, pipelined once: the tree over each 16-bit chunk of the key is registered,
//! then the chunk results (and the constant c) are XORed.
//!
//! Latency: 1 cycle (`key` in cycle t -> `addr` in cycle t+1). No memory, so no
//! same-address behaviour. Bits of `addr` at and above bank_bits are zero.
//!
//! The module is kept whole in synthesis (`(* keep_hierarchy *)`, verilog/mod.rs
//! `keep_whole`): the `(* keep *)` on each parity below keeps its net, but
//! ABC still shares terms below it with the other units' trees, and did so
//! differently in every design the core sat in.

use rust_hdl::prelude::*;

use bloom_params::HashFamily;

use crate::config::CoreConfig;
use crate::hash::feistel::STREAM_BITS;
use crate::hash::matrix::HashMatrix;
use crate::hash::spn::SpnNetwork;

// 16 key bits per registered XOR tree: at most 16 inputs, two LUT4 levels (32-bit
// chunks took three to four, and limited the iCE40 clock). The slice's width matters,
// not only the number of bits selected: grouping a column's selected bits 16 at a time
// over the whole 64-bit key (2.5 parities per address bit instead of 4, a quarter less
// Verilator time) mapped to three LUT levels and cost UP5K about 10 MHz (tried and
// measured, 2026-11-22). In a one-parity test, Yosys 0.23 maps `^(key & 64'hMASK)`
// with 16 bits selected to three LUT levels, and the same 16 bits as `^{key[a], ...}`
// to two.
const CHUNK: usize = 16;
const CHUNK_MASK: u32 = (1 << CHUNK) - 1;

#[derive(LogicBlock)]
pub struct HashUnit<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub key: Signal<In, Bits<W>>,
    /// The Feistel network's blocks (read by the Feistel family's units only).
    pub stream: Signal<In, Bits<STREAM_BITS>>,
    pub addr: Signal<Out, Bits<16>>,
    _matrix: HashMatrix,
    _chunk_parity: Vec<u16>,
    /// SPN: the network and this unit's partition (`_matrix` unused then).
    _spn: Option<(SpnNetwork, usize)>,
    /// SPN: the registered state of each block of the partition's bits.
    _spn_state: Vec<u128>,
    /// Feistel: the first stream bit of this unit's address, and its width b.
    _stream_field: Option<(usize, usize)>,
}

impl<const W: usize> HashUnit<W> {
    pub fn new(matrix: HashMatrix) -> Self {
        assert_eq!(matrix.key_bits, W);
        HashUnit {
            clock: Default::default(),
            key: Default::default(),
            stream: Default::default(),
            addr: Default::default(),
            _matrix: matrix,
            _chunk_parity: vec![0; W / CHUNK],
            _spn: None,
            _spn_state: Vec::new(),
            _stream_field: None,
        }
    }

    /// Partition `p`'s unit for configuration `cfg` (seed as `cfg.seed_of_bank(p)`).
    pub fn for_partition(cfg: &CoreConfig, p: usize) -> Self {
        match cfg.params.hash {
            HashFamily::H3 | HashFamily::Crc => Self::new(HashMatrix::for_partition(cfg, p)),
            HashFamily::Spn => {
                assert_eq!(cfg.key_bits(), W);
                let net = SpnNetwork::new(cfg.k(), cfg.bank_bits(), W, cfg.seed_of_bank(p));
                let blocks = net.blocks_of(p).len();
                HashUnit {
                    _chunk_parity: Vec::new(),
                    _spn: Some((net, p)),
                    _spn_state: vec![0; blocks],
                    ..Self::without_matrix(cfg)
                }
            }
            HashFamily::Feistel => HashUnit {
                _chunk_parity: Vec::new(),
                _stream_field: Some((p * cfg.bank_bits(), cfg.bank_bits())),
                ..Self::without_matrix(cfg)
            },
        }
    }

    /// A unit with an empty matrix, for the families that have none.
    fn without_matrix(cfg: &CoreConfig) -> Self {
        Self::new(HashMatrix {
            key_bits: W,
            bank_bits: cfg.bank_bits(),
            column_mask: Vec::new(),
            constant: 0,
        })
    }

    fn chunk_mask(&self, chunk: usize, bit: usize) -> u32 {
        ((self._matrix.column_mask[bit] >> (chunk * CHUNK)) as u32) & CHUNK_MASK
    }
}

impl<const W: usize> Logic for HashUnit<W> {
    fn update(&mut self) {
        if let Some((start, width)) = self._stream_field {
            let stream = self.stream.val();
            self.addr.next = Bits::<16>::from(
                (0..width).fold(0u64, |a, j| a | (stream.get_bit(start + j) as u64) << j),
            );
            return;
        }
        if let Some((net, p)) = &self._spn {
            let split = net.unit_rounds_before_register();
            if self.clock.pos_edge() {
                let key = self.key.val().to_u128();
                for (i, t) in net.blocks_of(*p).enumerate() {
                    self._spn_state[i] = net.rounds_between(t, key, 0, split);
                }
            }
            let finals: Vec<u128> = net
                .blocks_of(*p)
                .zip(&self._spn_state)
                .map(|(t, s)| net.rounds_between(t, *s, split, net.rounds))
                .collect();
            self.addr.next = Bits::<16>::from(net.address_from(*p, &finals) as u64);
            return;
        }
        if self.clock.pos_edge() {
            let key = self.key.val().to_u128();
            for chunk in 0..W / CHUNK {
                let key_chunk = ((key >> (chunk * CHUNK)) as u32) & CHUNK_MASK;
                self._chunk_parity[chunk] = (0..self._matrix.bank_bits)
                    .map(|j| {
                        (((key_chunk & self.chunk_mask(chunk, j)).count_ones() & 1) as u16) << j
                    })
                    .fold(0, |a, b| a | b);
            }
        }
        let addr = self
            ._chunk_parity
            .iter()
            .fold(self._matrix.constant, |a, p| a ^ p);
        self.addr.next = Bits::<16>::from(addr as u64);
    }

    fn connect(&mut self) {
        self.addr.connect();
    }

    fn hdl(&self) -> Verilog {
        // Each family leaves one of `key` and `stream` unread (Verilator's idiom).
        let unread = |name: &str| {
            format!("/* verilator lint_off UNUSED */\nwire unused_{name} = &{{1'b0, {name}, 1'b0}};\n/* verilator lint_on UNUSED */\n")
        };
        if let Some((start, width)) = self._stream_field {
            let pad = if width < 16 {
                format!("{}'h0, ", 16 - width)
            } else {
                String::new()
            };
            // The stream's other bits and the clock are unread too.
            return Verilog::Custom(format!(
                "always @(*) addr = {{{pad}stream[{}:{start}]}};\n{}{}{}",
                start + width - 1,
                unread("key"),
                unread("stream"),
                unread("clock")
            ));
        }
        if let Some((net, p)) = &self._spn {
            return Verilog::Custom(net.unit_verilog(*p) + &unread("stream"));
        }
        let b = self._matrix.bank_bits;
        let chunks = W / CHUNK;
        let mut code = String::new();
        for c in 0..chunks {
            code += &format!("reg [{}:0] chunk_parity_{c};\n", b - 1);
        }
        let mut trees = Vec::new();
        for c in 0..chunks {
            let mut bits = Vec::new();
            for j in (0..b).rev() {
                let mask = self.chunk_mask(c, j);
                if mask == 0 {
                    bits.push("1'b0".to_string());
                    continue;
                }
                // One kept parity per address bit and chunk: a 16-input XOR is two LUT4
                // levels. The keep holds the net; the module kept whole (see the header)
                // stops ABC sharing terms across partitions, which built three and four
                // levels. The masked-slice form is one popcount in Verilator.
                let name = format!("xor_{c}_{j}");
                code += &format!(
                    "(* keep *) wire {name} = ^(key[{}:{}] & {CHUNK}'h{mask:x});\n",
                    c * CHUNK + CHUNK - 1,
                    c * CHUNK
                );
                bits.push(name);
            }
            trees.push(format!(
                "    chunk_parity_{c} <= {{{}}};\n",
                bits.join(",\n        ")
            ));
        }
        code += "always @(posedge clock) begin\n";
        for t in trees {
            code += &t;
        }
        code += "end\n";
        // Key bits that no column selects are deliberately unread (Verilator's idiom).
        code += "/* verilator lint_off UNUSED */\nwire unused_key = &{1'b0, key, 1'b0};\n/* verilator lint_on UNUSED */\n";
        code += &unread("stream");
        let sum: Vec<String> = (0..chunks)
            .map(|c| format!("chunk_parity_{c}"))
            .chain(std::iter::once(format!("{b}'h{:x}", self._matrix.constant)))
            .collect();
        let pad = if b < 16 {
            format!("{}'h0, ", 16 - b)
        } else {
            String::new()
        };
        code += &format!(
            "always @(*) begin\n    addr = {{{pad}({})}};\nend\n",
            sum.join(" ^ ")
        );
        Verilog::Custom(code)
    }
}
