//! Every board and device the flow knows, in one table: part, package, clock,
//! constraint file, pins and the part's resource totals. Everything else in the
//! flow (tops, constraints, tool arguments, reports) reads from here.
//!
//! Pin numbers were checked against the boards' published platform files
//! (amaranth-boards `icebreaker.py`, `ice40_hx8k_b_evn.py`, `ulx3s.py`, and the
//! LiteX/icestorm/emard constraint files that agree with them).

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Ice40,
    Ecp5,
}

impl Family {
    /// How the lanes' query lanes read their replicas on this family's block RAM
    /// ([`Device::replica_ports`]).
    pub fn replica_ports(self) -> hdl::lanes::ReplicaPorts {
        match self {
            Family::Ecp5 => hdl::lanes::ReplicaPorts::Two,
            Family::Ice40 => hdl::lanes::ReplicaPorts::One,
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Family::Ice40 => "iCE40",
            Family::Ecp5 => "ECP5",
        })
    }
}

/// One FPGA part as the tools see it.
#[derive(Debug, PartialEq)]
pub struct Device {
    /// Name used on the command line (`bloom fmax --device`).
    pub name: &'static str,
    pub family: Family,
    /// Lattice's part name.
    pub part: &'static str,
    /// nextpnr's device selection flag.
    pub nextpnr_flag: &'static str,
    /// Package used when no board says otherwise (`bloom fmax`), in nextpnr's spelling.
    pub default_package: &'static str,
    /// Speed grade passed to nextpnr-ecp5 (`--speed`); None for iCE40.
    pub speed: Option<&'static str>,
    /// Logic cells (iCE40: LUT4+FF pairs) or LUT4s (ECP5), as nextpnr counts them.
    pub luts: u32,
    /// Flip-flops, as nextpnr counts them.
    pub ffs: u32,
    /// Block RAMs, as nextpnr counts them.
    pub brams: u32,
    /// Block RAMs the part is rated for, where that is fewer than the die nextpnr models.
    pub rated_brams: Option<u32>,
    /// Bits a block RAM holds in its one-bit-per-address arrangement
    /// (iCE40 SB_RAM40_4K: 4096 as 256x16 with a bit write mask; ECP5 DP16KD: 16384x1).
    pub bram_bits: u32,
    /// First-pass clock of `bloom build` when the user sets none: a frequency
    /// most configurations close, from which the second pass aims higher.
    pub conservative_mhz: f64,
    /// The nextpnr utilisation keys for LUTs, flip-flops and block RAMs.
    pub lut_bel: &'static str,
    pub ff_bel: &'static str,
    pub bram_bel: &'static str,
}

impl Device {
    /// Block RAMs a k-bank filter of 2^bank_bits counters of counter_bits bits (1: a
    /// plain filter's bits) needs at the least: every bank is read and written in the
    /// same cycle as the others, so banks cannot share a block.
    pub fn min_brams(&self, k: u32, bank_bits: u32, counter_bits: u32) -> u32 {
        let bank = (1u64 << bank_bits) * counter_bits.max(1) as u64;
        k * bank.div_ceil(self.bram_bits as u64) as u32
    }

    /// How the lanes' query lanes read their replicas on this part (hdl/src/lanes): on
    /// ECP5 two query lanes share each replica, one on each port of a DP16KD (a true
    /// dual-port RAM); iCE40's SB_RAM40_4K has one read port and one write port, so every
    /// query lane has replicas of its own.
    pub fn replica_ports(&self) -> hdl::lanes::ReplicaPorts {
        self.family.replica_ports()
    }

    /// Block RAMs `lanes` lanes of that filter need at the least on this part
    /// (hdl/src/lanes): lane 0 holds the filter's banks; the query lanes a replica of
    /// each bank's bits (of a counting filter, its counters' non-zero bits: 1 bit per
    /// address) for every one of them, or every two of them ([`Device::replica_ports`]).
    pub fn min_brams_of_lanes(&self, k: u32, bank_bits: u32, counter_bits: u32, lanes: u32) -> u32 {
        self.min_brams_of_lanes_with(k, bank_bits, counter_bits, lanes, self.replica_ports())
    }

    /// [`Device::min_brams_of_lanes`] for query lanes that read their replicas as `ports`
    /// says (lanes generated for another part, as an IP package's are).
    pub fn min_brams_of_lanes_with(
        &self,
        k: u32,
        bank_bits: u32,
        counter_bits: u32,
        lanes: u32,
        ports: hdl::lanes::ReplicaPorts,
    ) -> u32 {
        let query_lanes = lanes.saturating_sub(1);
        let replicas = query_lanes.div_ceil(ports.lanes_per_replica() as u32);
        self.min_brams(k, bank_bits, counter_bits) + self.min_brams(k, bank_bits, 1) * replicas
    }

    /// Block RAMs usable on this part (the rating where it is below the modelled die).
    pub fn usable_brams(&self) -> u32 {
        self.rated_brams.unwrap_or(self.brams)
    }
}

pub static UP5K: Device = Device {
    name: "up5k",
    family: Family::Ice40,
    part: "iCE40UP5K",
    nextpnr_flag: "--up5k",
    default_package: "sg48",
    speed: None,
    luts: 5280,
    ffs: 5280,
    brams: 30,
    rated_brams: None,
    bram_bits: 4096,
    conservative_mhz: 24.0,
    lut_bel: "ICESTORM_LC",
    ff_bel: "ICESTORM_LC",
    bram_bel: "ICESTORM_RAM",
};

pub static HX8K: Device = Device {
    name: "hx8k",
    family: Family::Ice40,
    part: "iCE40HX8K",
    nextpnr_flag: "--hx8k",
    default_package: "ct256",
    speed: None,
    luts: 7680,
    ffs: 7680,
    brams: 32,
    rated_brams: None,
    bram_bits: 4096,
    conservative_mhz: 48.0,
    lut_bel: "ICESTORM_LC",
    ff_bel: "ICESTORM_LC",
    bram_bel: "ICESTORM_RAM",
};

macro_rules! ecp5 {
    ($name:literal, $part:literal, $flag:literal, $luts:literal, $brams:literal, $rated:expr) => {
        Device {
            name: $name,
            family: Family::Ecp5,
            part: $part,
            nextpnr_flag: $flag,
            default_package: "CABGA381",
            speed: Some("6"),
            luts: $luts,
            ffs: $luts,
            brams: $brams,
            rated_brams: $rated,
            bram_bits: 16384,
            conservative_mhz: 50.0,
            lut_bel: "TRELLIS_COMB",
            ff_bel: "TRELLIS_FF",
            bram_bel: "DP16KD",
        }
    };
}

// The 12F is the 25F die with a smaller rating (12K LUTs, 32 EBR); nextpnr
// models the whole die, so its totals are the 25F's.
pub static ECP5_12F: Device = ecp5!("ecp5-12f", "LFE5U-12F", "--12k", 24288, 56, Some(32));
pub static ECP5_25F: Device = ecp5!("ecp5-25f", "LFE5U-25F", "--25k", 24288, 56, None);
pub static ECP5_45F: Device = ecp5!("ecp5-45f", "LFE5U-45F", "--45k", 43848, 108, None);
pub static ECP5_85F: Device = ecp5!("ecp5-85f", "LFE5U-85F", "--85k", 83640, 208, None);

pub static DEVICES: [&Device; 6] = [&UP5K, &HX8K, &ECP5_12F, &ECP5_25F, &ECP5_45F, &ECP5_85F];

/// One board pin: location and, on the board, whether it is active low.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pin {
    pub site: &'static str,
    pub active_low: bool,
}

const fn hi(site: &'static str) -> Pin {
    Pin {
        site,
        active_low: false,
    }
}
const fn lo(site: &'static str) -> Pin {
    Pin {
        site,
        active_low: true,
    }
}

/// One board: its part, package, oscillator and the pins the flow uses.
#[derive(Debug, PartialEq)]
pub struct Board {
    /// Name used on the command line (`bloom build --board`).
    pub name: &'static str,
    pub title: &'static str,
    pub device: &'static Device,
    /// Package in nextpnr's spelling.
    pub package: &'static str,
    /// Package as Lattice orders it (for the constraint file header and report).
    pub package_title: &'static str,
    pub clock: Pin,
    pub clock_mhz: f64,
    /// iCE40: the oscillator enters on the PLL's own pad, so the PLL must be
    /// SB_PLL40_PAD (SB_PLL40_CORE cannot be placed there).
    pub clock_on_pll_pad: bool,
    /// None where the board has no user push button (power-on reset only).
    pub reset_button: Option<Pin>,
    /// led[0] is the error light of the test pattern, led[1] its heartbeat.
    pub leds: &'static [Pin],
    /// The FTDI UART, named from the FPGA's side: rx is an FPGA input.
    pub uart_rx: Pin,
    pub uart_tx: Pin,
    /// Path of the constraint file, relative to the repository root.
    pub constraint_file: &'static str,
    /// openFPGALoader's `-b` name.
    pub programmer_board: &'static str,
    /// USB vid:pid of the board's programming interface, as `openFPGALoader --scan-usb` lists it.
    pub programmer_usb: &'static str,
    /// What a user of the board should know (shown in the constraint file header).
    pub notes: &'static str,
}

pub static ICEBREAKER: Board = Board {
    name: "icebreaker",
    title: "1BitSquared iCEBreaker v1.0",
    device: &UP5K,
    package: "sg48",
    package_title: "SG48",
    clock: hi("35"),
    clock_mhz: 12.0,
    clock_on_pll_pad: true,
    reset_button: Some(lo("10")),
    // LEDR_N, LEDG_N on the board, then LED1..LED5 of the snap-off PMOD2 section.
    leds: &[
        lo("11"),
        lo("37"),
        hi("26"),
        hi("27"),
        hi("25"),
        hi("23"),
        hi("21"),
    ],
    uart_rx: hi("6"),
    uart_tx: hi("9"),
    constraint_file: "constraints/icebreaker.pcf",
    programmer_board: "ice40_generic",
    programmer_usb: "0403:6010",
    notes: "led[2..6] are on the snap-off PMOD section (PMOD2); the red LED shows errors",
};

pub static HX8K_BREAKOUT: Board = Board {
    name: "hx8k",
    title: "Lattice iCE40-HX8K Breakout Board (ICE40HX8K-B-EVN)",
    device: &HX8K,
    package: "ct256",
    package_title: "CT256",
    clock: hi("J3"),
    clock_mhz: 12.0,
    clock_on_pll_pad: false,
    reset_button: None,
    // D2..D9
    leds: &[
        hi("C3"),
        hi("B3"),
        hi("C4"),
        hi("C5"),
        hi("A1"),
        hi("A2"),
        hi("B4"),
        hi("B5"),
    ],
    uart_rx: hi("B10"),
    uart_tx: hi("B12"),
    constraint_file: "constraints/hx8k.pcf",
    programmer_board: "ice40_generic",
    programmer_usb: "0403:6010",
    notes: "the board has no user push button: reset is power-on only",
};

macro_rules! ulx3s {
    ($name:literal, $title:literal, $dev:expr, $file:literal) => {
        Board {
            name: $name,
            title: $title,
            device: $dev,
            package: "CABGA381",
            package_title: "CABGA381",
            clock: hi("G2"),
            clock_mhz: 25.0,
            clock_on_pll_pad: false,
            // BTN_PWRn (the button labelled PWR), pulled up, pressed = 0.
            reset_button: Some(lo("D6")),
            leds: &[
                hi("B2"),
                hi("C2"),
                hi("C1"),
                hi("D2"),
                hi("D1"),
                hi("E2"),
                hi("E1"),
                hi("H3"),
            ],
            // ftdi_txd / ftdi_rxd in the board's own naming.
            uart_rx: hi("M1"),
            uart_tx: hi("L4"),
            constraint_file: $file,
            programmer_board: "ulx3s",
            programmer_usb: "0403:6015",
            notes: "the PWR button is the reset button",
        }
    };
}

pub static ULX3S_12F: Board = ulx3s!(
    "ulx3s-12f",
    "Radiona ULX3S (LFE5U-12F)",
    &ECP5_12F,
    "constraints/ulx3s-12f.lpf"
);
pub static ULX3S_25F: Board = ulx3s!(
    "ulx3s-25f",
    "Radiona ULX3S (LFE5U-25F)",
    &ECP5_25F,
    "constraints/ulx3s-25f.lpf"
);
pub static ULX3S_45F: Board = ulx3s!(
    "ulx3s-45f",
    "Radiona ULX3S (LFE5U-45F)",
    &ECP5_45F,
    "constraints/ulx3s-45f.lpf"
);
pub static ULX3S_85F: Board = ulx3s!(
    "ulx3s-85f",
    "Radiona ULX3S (LFE5U-85F)",
    &ECP5_85F,
    "constraints/ulx3s-85f.lpf"
);

pub static BOARDS: [&Board; 6] = [
    &ICEBREAKER,
    &HX8K_BREAKOUT,
    &ULX3S_12F,
    &ULX3S_25F,
    &ULX3S_45F,
    &ULX3S_85F,
];

/// `ulx3s` alone means the 85F, the variant most boards carry.
pub fn board(name: &str) -> Result<&'static Board, crate::FlowError> {
    let wanted = if name.eq_ignore_ascii_case("ulx3s") {
        "ulx3s-85f"
    } else {
        name
    };
    BOARDS
        .iter()
        .copied()
        .find(|b| b.name.eq_ignore_ascii_case(wanted))
        .ok_or_else(|| crate::FlowError::UnknownName {
            what: "board",
            given: name.to_string(),
            allowed: board_names().join(", ") + ", ulx3s (= ulx3s-85f)",
        })
}

pub fn device(name: &str) -> Result<&'static Device, crate::FlowError> {
    DEVICES
        .iter()
        .copied()
        .find(|d| d.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| crate::FlowError::UnknownName {
            what: "device",
            given: name.to_string(),
            allowed: device_names().join(", "),
        })
}

pub fn board_names() -> Vec<&'static str> {
    BOARDS.iter().map(|b| b.name).collect()
}

pub fn device_names() -> Vec<&'static str> {
    DEVICES.iter().map(|d| d.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for b in BOARDS {
            assert_eq!(board(b.name).unwrap(), b);
            assert!(b
                .constraint_file
                .ends_with(if b.device.family == Family::Ice40 {
                    ".pcf"
                } else {
                    ".lpf"
                }));
        }
        for d in DEVICES {
            assert_eq!(device(d.name).unwrap(), d);
        }
        assert_eq!(board("ULX3S").unwrap().name, "ulx3s-85f");
        let e = board("de10-nano").unwrap_err().to_string();
        assert!(e.contains("de10-nano") && e.contains("icebreaker"), "{e}");
    }

    #[test]
    fn pins_are_distinct_per_board() {
        for b in BOARDS {
            let mut sites: Vec<&str> = b.leds.iter().map(|p| p.site).collect();
            sites.push(b.clock.site);
            sites.push(b.uart_rx.site);
            sites.push(b.uart_tx.site);
            if let Some(r) = b.reset_button {
                sites.push(r.site);
            }
            let n = sites.len();
            sites.sort();
            sites.dedup();
            assert_eq!(sites.len(), n, "{} uses a pin twice", b.name);
        }
    }

    #[test]
    fn minimum_brams_k4_b12() {
        assert_eq!(UP5K.min_brams(4, 12, 1), 4);
        assert_eq!(UP5K.min_brams(16, 16, 1), 256);
        // Counting filters: 2^b x c bits per bank.
        assert_eq!(UP5K.min_brams(4, 12, 4), 16);
        assert_eq!(UP5K.min_brams(3, 6, 2), 3);
        assert_eq!(ECP5_85F.min_brams(4, 12, 1), 4);
        assert_eq!(ECP5_85F.min_brams(4, 16, 1), 16);
        assert_eq!(ECP5_85F.min_brams(4, 12, 4), 4);
        assert_eq!(ECP5_85F.min_brams(4, 12, 8), 8);
        assert_eq!(HX8K.min_brams(2, 6, 1), 2);
        assert_eq!(HX8K.min_brams_of_lanes(4, 12, 1, 8), 32);
        assert_eq!(HX8K.min_brams_of_lanes(4, 12, 4, 5), 32);
        assert_eq!(ECP5_85F.min_brams_of_lanes(4, 12, 4, 3), 8);
        assert_eq!(ECP5_85F.min_brams_of_lanes(4, 12, 1, 103), 208);
        assert_eq!(ECP5_85F.min_brams_of_lanes(4, 12, 1, 104), 212);
    }
}
