//! Hash unit of one partition: `addr = (M * key) ^ c` over GF(2) (see `hash_matrix`),
//! for both families. Each address bit is an XOR tree over the key bits its column
//! selects, pipelined once: the tree over each 32-bit chunk of the key is registered,
//! then the chunk results (and the constant c) are XORed.
//!
//! Latency: 1 cycle (`key` in cycle t -> `addr` in cycle t+1). No memory, so no
//! same-address behaviour. Bits of `addr` at and above bank_bits are zero.

use rust_hdl::prelude::*;

use crate::hash_matrix::HashMatrix;

const CHUNK: usize = 32;

#[derive(LogicBlock)]
pub struct HashUnit<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub key: Signal<In, Bits<W>>,
    pub addr: Signal<Out, Bits<16>>,
    _matrix: HashMatrix,
    _chunk_parity: Vec<u16>,
}

impl<const W: usize> HashUnit<W> {
    pub fn new(matrix: HashMatrix) -> Self {
        assert_eq!(matrix.key_bits, W);
        HashUnit {
            clock: Default::default(),
            key: Default::default(),
            addr: Default::default(),
            _matrix: matrix,
            _chunk_parity: vec![0; W / CHUNK],
        }
    }

    fn chunk_mask(&self, chunk: usize, bit: usize) -> u32 {
        (self._matrix.column_mask[bit] >> (chunk * CHUNK)) as u32
    }
}

impl<const W: usize> Logic for HashUnit<W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let key = self.key.val().to_u128();
            for chunk in 0..W / CHUNK {
                let key_chunk = (key >> (chunk * CHUNK)) as u32;
                self._chunk_parity[chunk] = (0..self._matrix.bank_bits)
                    .map(|j| (((key_chunk & self.chunk_mask(chunk, j)).count_ones() & 1) as u16) << j)
                    .fold(0, |a, b| a | b);
            }
        }
        let addr = self._chunk_parity.iter().fold(self._matrix.constant, |a, p| a ^ p);
        self.addr.next = Bits::<16>::from(addr as u64);
    }

    fn connect(&mut self) {
        self.addr.connect();
    }

    fn hdl(&self) -> Verilog {
        let b = self._matrix.bank_bits;
        let chunks = W / CHUNK;
        let mut code = String::new();
        for c in 0..chunks {
            code += &format!("reg [{}:0] chunk_parity_{c};\n", b - 1);
        }
        code += "always @(posedge clock) begin\n";
        for c in 0..chunks {
            let terms: Vec<String> = (0..b)
                .rev()
                .map(|j| {
                    format!(
                        "(^(key[{hi}:{lo}] & 32'h{m:08x}))",
                        hi = c * CHUNK + CHUNK - 1,
                        lo = c * CHUNK,
                        m = self.chunk_mask(c, j)
                    )
                })
                .collect();
            code += &format!("    chunk_parity_{c} <= {{{}}};\n", terms.join(",\n        "));
        }
        code += "end\n";
        let sum: Vec<String> = (0..chunks)
            .map(|c| format!("chunk_parity_{c}"))
            .chain(std::iter::once(format!("{b}'h{:x}", self._matrix.constant)))
            .collect();
        let pad = if b < 16 { format!("{}'h0, ", 16 - b) } else { String::new() };
        code += &format!("always @(*) begin\n    addr = {{{pad}({})}};\nend\n", sum.join(" ^ "));
        Verilog::Custom(code)
    }
}
