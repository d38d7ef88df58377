//! The eight CRC algorithms of contract §3.2, computed bit-serially exactly as the CRC
//! RevEng catalogue defines them. Elaboration-time only: the hardware never runs this
//! code, it runs the XOR matrix that `hash_matrix` derives from it.

#[derive(Clone, Copy, Debug)]
pub struct CrcAlgorithm {
    pub name: &'static str,
    pub width: u32,
    pub poly: u64,
    pub init: u64,
    pub reflect: bool,
    pub xorout: u64,
    pub check: u64,
}

/// Partition p uses `CRC_ALGORITHMS[p % 8]` (contract §3.2 table).
pub const CRC_ALGORITHMS: [CrcAlgorithm; 8] = [
    CrcAlgorithm {
        name: "CRC-32/ISCSI",
        width: 32,
        poly: 0x1EDC6F41,
        init: 0xFFFFFFFF,
        reflect: true,
        xorout: 0xFFFFFFFF,
        check: 0xE3069283,
    },
    CrcAlgorithm {
        name: "CRC-32/ISO-HDLC",
        width: 32,
        poly: 0x04C11DB7,
        init: 0xFFFFFFFF,
        reflect: true,
        xorout: 0xFFFFFFFF,
        check: 0xCBF43926,
    },
    CrcAlgorithm {
        name: "CRC-32/AUTOSAR",
        width: 32,
        poly: 0xF4ACFB13,
        init: 0xFFFFFFFF,
        reflect: true,
        xorout: 0xFFFFFFFF,
        check: 0x1697D06A,
    },
    CrcAlgorithm {
        name: "CRC-32/BASE91-D",
        width: 32,
        poly: 0xA833982B,
        init: 0xFFFFFFFF,
        reflect: true,
        xorout: 0xFFFFFFFF,
        check: 0x87315576,
    },
    CrcAlgorithm {
        name: "CRC-32/MEF",
        width: 32,
        poly: 0x741B8CD7,
        init: 0xFFFFFFFF,
        reflect: true,
        xorout: 0x00000000,
        check: 0xD2C22F51,
    },
    CrcAlgorithm {
        name: "CRC-32/AIXM",
        width: 32,
        poly: 0x814141AB,
        init: 0x00000000,
        reflect: false,
        xorout: 0x00000000,
        check: 0x3010BF7F,
    },
    CrcAlgorithm {
        name: "CRC-64/XZ",
        width: 64,
        poly: 0x42F0E1EBA9EA3693,
        init: 0xFFFFFFFFFFFFFFFF,
        reflect: true,
        xorout: 0xFFFFFFFFFFFFFFFF,
        check: 0x995DC9BBDF1939FA,
    },
    CrcAlgorithm {
        name: "CRC-64/MS",
        width: 64,
        poly: 0x259C84CBA6426349,
        init: 0xFFFFFFFFFFFFFFFF,
        reflect: true,
        xorout: 0x0000000000000000,
        check: 0x75D4B74F024ECEEA,
    },
];

fn reflect(value: u64, width: u32) -> u64 {
    let mut out = 0;
    for i in 0..width {
        if (value >> i) & 1 == 1 {
            out |= 1 << (width - 1 - i);
        }
    }
    out
}

impl CrcAlgorithm {
    fn mask(&self) -> u64 {
        if self.width == 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }

    /// The CRC of `message`, one bit at a time.
    pub fn compute(&self, message: &[u8]) -> u64 {
        let mask = self.mask();
        let top = 1u64 << (self.width - 1);
        let mut state = self.init & mask;
        for &byte in message {
            let byte = if self.reflect {
                reflect(byte as u64, 8) as u8
            } else {
                byte
            };
            for bit in (0..8).rev() {
                let feedback = ((state & top) != 0) ^ ((byte >> bit) & 1 == 1);
                state = (state << 1) & mask;
                if feedback {
                    state ^= self.poly;
                }
            }
        }
        if self.reflect {
            state = reflect(state, self.width);
        }
        (state ^ self.xorout) & mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_meets_its_catalogue_check_value() {
        for alg in CRC_ALGORITHMS {
            assert_eq!(alg.compute(b"123456789"), alg.check, "{}", alg.name);
        }
    }
}
