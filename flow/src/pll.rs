//! PLL settings: the highest output frequency at or below a requested one,
//! for the iCE40 SB_PLL40 (SIMPLE feedback) and the ECP5 EHXPLLL, and the
//! Verilog that instantiates them.
//!
//! Why not rust-hdl-fpga-support's `ICE40PLLBlock`: it takes the frequencies
//! as const generics (fixed at compile time, while the build picks the
//! frequency at run time from achieved timing), keeps its divider search
//! private, picks the *nearest* setting (which may be above the request and so
//! above what timing allows), and instantiates SB_PLL40_CORE, which cannot be
//! placed on the iCEBreaker (its 12 MHz clock enters on the PLL's own pad, so
//! the PLL must be SB_PLL40_PAD). The search below is the same as that crate's
//! (from icestorm's icepll); a test checks that both agree wherever the request
//! is exactly reachable. The crate has no ECP5 PLL.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ice40Pll {
    pub fin_mhz: f64,
    pub fout_mhz: f64,
    pub divr: u32,
    pub divf: u32,
    pub divq: u32,
    pub filter_range: u32,
}

/// iCE40 PLL limits (iCE40 sysCLOCK PLL design guide, as icepll applies them).
pub const ICE40_PLL_MIN_OUT_MHZ: f64 = 16.0;
pub const ICE40_PLL_MAX_OUT_MHZ: f64 = 275.0;

/// The highest SIMPLE-feedback setting with output <= `max_out_mhz`.
pub fn ice40(fin_mhz: f64, max_out_mhz: f64) -> Option<Ice40Pll> {
    if !(10.0..=133.0).contains(&fin_mhz) || max_out_mhz < ICE40_PLL_MIN_OUT_MHZ {
        return None;
    }
    let mut best: Option<Ice40Pll> = None;
    for divr in 0..=15u32 {
        let f_pfd = fin_mhz / (divr as f64 + 1.0);
        if !(10.0..=133.0).contains(&f_pfd) {
            continue;
        }
        for divf in 0..=127u32 {
            let f_vco = f_pfd * (divf as f64 + 1.0);
            if !(533.0..=1066.0).contains(&f_vco) {
                continue;
            }
            for divq in 1..=6u32 {
                let fout = f_vco / f64::from(1u32 << divq);
                if fout > max_out_mhz + 1e-9
                    || !(ICE40_PLL_MIN_OUT_MHZ..=ICE40_PLL_MAX_OUT_MHZ).contains(&fout)
                {
                    continue;
                }
                if best.as_ref().is_none_or(|b| fout > b.fout_mhz + 1e-9) {
                    let filter_range = match f_pfd {
                        f if f < 17.0 => 1,
                        f if f < 26.0 => 2,
                        f if f < 44.0 => 3,
                        f if f < 66.0 => 4,
                        f if f < 101.0 => 5,
                        _ => 6,
                    };
                    best = Some(Ice40Pll {
                        fin_mhz,
                        fout_mhz: fout,
                        divr,
                        divf,
                        divq,
                        filter_range,
                    });
                }
            }
        }
    }
    best
}

impl Ice40Pll {
    /// The instance, reference clock from `clock`, output `core_clock`,
    /// lock `pll_locked`. `from_pad`: the reference clock pin is the PLL's pad.
    pub fn verilog(&self, from_pad: bool) -> String {
        let (prim, refport) = if from_pad {
            ("SB_PLL40_PAD", "PACKAGEPIN")
        } else {
            ("SB_PLL40_CORE", "REFERENCECLK")
        };
        format!(
            "    // {fin} MHz in, {fout:.4} MHz out (F_PFD {pfd:.3}, F_VCO {vco:.3} MHz)
    {prim} #(
        .FEEDBACK_PATH(\"SIMPLE\"),
        .DIVR(4'd{divr}),
        .DIVF(7'd{divf}),
        .DIVQ(3'd{divq}),
        .FILTER_RANGE(3'd{fr})
    ) pll (
        .{refport}(clock),
        .PLLOUTGLOBAL(core_clock),
        .LOCK(pll_locked),
        .RESETB(1'b1),
        .BYPASS(1'b0)
    );
",
            fin = self.fin_mhz,
            fout = self.fout_mhz,
            pfd = self.fin_mhz / (self.divr as f64 + 1.0),
            vco = self.fin_mhz / (self.divr as f64 + 1.0) * (self.divf as f64 + 1.0),
            divr = self.divr,
            divf = self.divf,
            divq = self.divq,
            fr = self.filter_range,
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ecp5Pll {
    pub fin_mhz: f64,
    pub fout_mhz: f64,
    pub clki_div: u32,
    pub clkfb_div: u32,
    pub clkop_div: u32,
}

/// ECP5 EHXPLLL limits (ECP5 sysCLOCK guide, as Project Trellis' ecppll applies them).
pub const ECP5_PLL_MIN_OUT_MHZ: f64 = 3.125;
pub const ECP5_PLL_MAX_OUT_MHZ: f64 = 400.0;

/// The highest CLKOP-feedback setting with output <= `max_out_mhz`.
pub fn ecp5(fin_mhz: f64, max_out_mhz: f64) -> Option<Ecp5Pll> {
    let mut best: Option<Ecp5Pll> = None;
    for clki_div in 1..=128u32 {
        let f_pfd = fin_mhz / clki_div as f64;
        if !(3.125..=400.0).contains(&f_pfd) {
            continue;
        }
        for clkfb_div in 1..=80u32 {
            let fout = f_pfd * clkfb_div as f64;
            if fout > max_out_mhz + 1e-9
                || !(ECP5_PLL_MIN_OUT_MHZ..=ECP5_PLL_MAX_OUT_MHZ).contains(&fout)
            {
                continue;
            }
            if best.as_ref().is_some_and(|b| fout <= b.fout_mhz + 1e-9) {
                continue;
            }
            // The smallest output divider that puts the VCO in range.
            if let Some(clkop_div) =
                (1..=128u32).find(|d| (400.0..=800.0).contains(&(fout * *d as f64)))
            {
                best = Some(Ecp5Pll {
                    fin_mhz,
                    fout_mhz: fout,
                    clki_div,
                    clkfb_div,
                    clkop_div,
                });
            }
        }
    }
    best
}

impl Ecp5Pll {
    pub fn verilog(&self) -> String {
        format!(
            "    // {fin} MHz in, {fout:.4} MHz out (VCO {vco:.3} MHz)
    (* FREQUENCY_PIN_CLKI=\"{fin}\" *)
    (* FREQUENCY_PIN_CLKOP=\"{fout:.4}\" *)
    (* ICP_CURRENT=\"12\" *) (* LPF_RESISTOR=\"8\" *) (* MFG_ENABLE_FILTEROPAMP=\"1\" *) (* MFG_GMCREF_SEL=\"2\" *)
    EHXPLLL #(
        .PLLRST_ENA(\"DISABLED\"),
        .INTFB_WAKE(\"DISABLED\"),
        .STDBY_ENABLE(\"DISABLED\"),
        .DPHASE_SOURCE(\"DISABLED\"),
        .OUTDIVIDER_MUXA(\"DIVA\"),
        .OUTDIVIDER_MUXB(\"DIVB\"),
        .OUTDIVIDER_MUXC(\"DIVC\"),
        .OUTDIVIDER_MUXD(\"DIVD\"),
        .CLKI_DIV({clki}),
        .CLKOP_ENABLE(\"ENABLED\"),
        .CLKOP_DIV({op}),
        .CLKOP_CPHASE({cphase}),
        .CLKOP_FPHASE(0),
        .FEEDBK_PATH(\"CLKOP\"),
        .CLKFB_DIV({fb})
    ) pll (
        .RST(1'b0),
        .STDBY(1'b0),
        .CLKI(clock),
        .CLKOP(core_clock),
        .CLKFB(core_clock),
        .PHASESEL0(1'b0),
        .PHASESEL1(1'b0),
        .PHASEDIR(1'b1),
        .PHASESTEP(1'b1),
        .PHASELOADREG(1'b1),
        .PLLWAKESYNC(1'b0),
        .ENCLKOP(1'b0),
        .LOCK(pll_locked)
    );
",
            fin = self.fin_mhz,
            fout = self.fout_mhz,
            vco = self.fout_mhz * self.clkop_div as f64,
            clki = self.clki_div,
            op = self.clkop_div,
            cphase = (self.clkop_div - 1) / 2,
            fb = self.clkfb_div,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_hdl::prelude::Logic;
    use rust_hdl_fpga_support::lattice::ice40::ice_pll::ICE40PLLBlock;

    fn param(verilog: &str, name: &str) -> u32 {
        let start = verilog.find(&format!(".{name}(")).unwrap() + name.len() + 2;
        let lit = &verilog[start..start + verilog[start..].find(')').unwrap()];
        let (_, v) = lit.split_once('\'').unwrap();
        let (radix, digits) = v.split_at(1);
        u32::from_str_radix(
            digits,
            if radix == "h" {
                16
            } else if radix == "b" {
                2
            } else {
                10
            },
        )
        .unwrap()
    }

    fn crate_setting<const FIN: u64, const FOUT: u64>() -> (u32, u32, u32, u32) {
        let block = ICE40PLLBlock::<FIN, FOUT>::default();
        let rust_hdl::prelude::Verilog::Custom(v) = block.hdl() else {
            panic!("custom verilog expected")
        };
        (
            param(&v, "DIVR"),
            param(&v, "DIVF"),
            param(&v, "DIVQ"),
            param(&v, "FILTER_RANGE"),
        )
    }

    fn ours(fin: f64, fout: f64) -> (u32, u32, u32, u32) {
        let p = ice40(fin, fout).unwrap();
        assert!(
            (p.fout_mhz - fout).abs() < 1e-9,
            "{fout} should be exact, got {}",
            p.fout_mhz
        );
        (p.divr, p.divf, p.divq, p.filter_range)
    }

    #[test]
    fn ice40_agrees_with_rust_hdl_fpga_support_where_exact() {
        assert_eq!(ours(12.0, 48.0), crate_setting::<12_000_000, 48_000_000>());
        assert_eq!(ours(12.0, 36.0), crate_setting::<12_000_000, 36_000_000>());
        assert_eq!(ours(12.0, 72.0), crate_setting::<12_000_000, 72_000_000>());
        assert_eq!(ours(12.0, 96.0), crate_setting::<12_000_000, 96_000_000>());
        assert_eq!(ours(12.0, 24.0), crate_setting::<12_000_000, 24_000_000>());
    }

    #[test]
    fn ice40_never_above_request() {
        let mut f = 16.2;
        while f < ICE40_PLL_MAX_OUT_MHZ {
            let p = ice40(12.0, f).unwrap();
            // The VCO moves in 12 MHz steps and DIVQ divides by at least 2.
            assert!(
                p.fout_mhz <= f + 1e-9 && p.fout_mhz > f - 6.0 - 1e-9,
                "{f}: {p:?}"
            );
            f += 0.7;
        }
        assert!(ice40(12.0, 15.0).is_none());
        assert_eq!(ice40(12.0, 100.0).unwrap().fout_mhz, 99.0);
    }

    #[test]
    fn ecp5_never_above_request() {
        let mut f = 3.2;
        // 80 (the largest feedback divider) x 3.125 MHz: above it the grid coarsens.
        while f < 250.0 {
            let p = ecp5(25.0, f).unwrap();
            // Dividing the input by 8 keeps the PFD at 3.125 MHz, so the grid is that fine.
            assert!(
                p.fout_mhz <= f + 1e-9 && p.fout_mhz > f - 3.125 - 1e-9,
                "{f}: {p:?}"
            );
            let vco = p.fout_mhz * p.clkop_div as f64;
            assert!((400.0..=800.0).contains(&vco));
            f += 1.3;
        }
        let p = ecp5(25.0, 100.0).unwrap();
        assert_eq!(p.fout_mhz, 100.0);
    }
}
