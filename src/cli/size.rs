//! `bloom size`: the smallest filter whose exact false-positive rate meets a
//! target for n items (golden::theory::sizing), optionally on a named FPGA.

use std::fmt::Write as _;

use anyhow::{bail, Result};
use golden::theory::counting::smallest_counter_bits;
use golden::theory::optimal::Layout;
use golden::theory::sizing::{recommend, BlockRams, HW_BANK_BITS, HW_K_MAX};

use crate::cli::config::device_parser;

#[derive(clap::Args)]
pub struct Args {
    /// Items the filter must hold.
    #[arg(long)]
    n: u64,
    /// Target false-positive rate, 0 < p < 1.
    #[arg(long)]
    p: f64,
    /// Filter layout: partitioned (the hardware) or standard (one shared array).
    #[arg(long, default_value = "partitioned")]
    layout: String,
    /// Round up to whole block RAMs of this device (flow/src/board.rs) and say whether it fits.
    #[arg(long, value_parser = device_parser())]
    device: Option<&'static flow::board::Device>,
    /// Also size a counting filter (docs/contract.md §7) of the recommended k and banks:
    /// the narrowest counter width whose probability that some counter saturates while
    /// it holds n items is at most this (union bound, docs/theory.md).
    #[arg(long)]
    overflow: Option<f64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    if args.n == 0 {
        bail!("--n 0 is out of range: the filter must hold at least one item");
    }
    if !(args.p > 0.0 && args.p < 1.0) {
        bail!(
            "--p {} is out of range: the target false-positive rate must satisfy 0 < p < 1",
            args.p
        );
    }
    let layout: Layout = args.layout.parse().map_err(|_| {
        anyhow::anyhow!(
            "--layout {:?} is unknown: use partitioned or standard",
            args.layout
        )
    })?;
    if let Some(q) = args.overflow {
        if !(q > 0.0 && q < 1.0) {
            bail!("--overflow {q} is out of range: the target overflow probability must satisfy 0 < p < 1");
        }
        if layout != Layout::Partitioned {
            bail!("--overflow sizes the counters of the partitioned layout (the hardware's); drop --layout standard");
        }
    }
    let dev = args.device.map(block_rams);
    let rec = recommend(layout, args.n, args.p, dev)?;
    let counting = match args.overflow {
        Some(q) => Some(smallest_counter_bits(rec.m, rec.n, rec.k, q)?),
        None => None,
    };
    if args.json {
        let v = serde_json::json!({
            "layout": rec.layout.name(),
            "n": rec.n,
            "p": rec.target,
            "m": rec.m,
            "k": rec.k,
            "bank_bits": rec.bank_bits,
            "rate": rec.rate,
            "classic": rec.classic,
            "device": rec.placement.as_ref().map(|pl| pl.device.name.clone()),
            "blocks_used": rec.placement.as_ref().map(|pl| pl.blocks_used),
            "blocks_available": rec.placement.as_ref().map(|pl| pl.device.blocks),
            "fits": rec.placement.as_ref().map(|pl| pl.fits),
            "counting": counting.map(|c| serde_json::json!({
                "overflow_target": args.overflow,
                "counter_bits": c.counter_bits.get(),
                "overflow_upper": c.overflow_upper,
                "expected_saturated": c.expected_saturated,
                "memory_bits": rec.m * c.counter_bits.get() as u64,
            })),
        });
        return super::emit(&format!("{v}\n"));
    }
    let mut s = String::new();
    writeln!(
        s,
        "{} layout for n = {} items at p <= {}:",
        rec.layout, rec.n, rec.target
    )?;
    match rec.bank_bits {
        Some(b) => writeln!(
            s,
            "  k = {} banks of 2^{} = {} bits: m = {} bits ({:.2} bits per item)",
            rec.k,
            b,
            1u64 << b,
            rec.m,
            rec.m as f64 / rec.n as f64
        )?,
        None => writeln!(
            s,
            "  m = {} bits, k = {} ({:.2} bits per item)",
            rec.m,
            rec.k,
            rec.m as f64 / rec.n as f64
        )?,
    }
    writeln!(
        s,
        "  exact false-positive rate {:.4e} (classic formula would say {:.4e})",
        rec.rate, rec.classic
    )?;
    if let Some(bank_bits) = rec.bank_bits {
        writeln!(
            s,
            "  hardware: k in 1..={HW_K_MAX}, banks of 2^{}..2^{} bits; core options: --k {} --bank-bits {}",
            HW_BANK_BITS.start(),
            HW_BANK_BITS.end(),
            rec.k,
            bank_bits
        )?;
    }
    if let Some(c) = &counting {
        writeln!(
            s,
            "  counting filter: --counter-bits {} ({} bits per counter, {} bits of memory): some counter saturates \
             with probability <= {:.3e} (target {:e}), {:.3e} saturated counters expected",
            c.counter_bits.get(),
            c.counter_bits.get(),
            rec.m * c.counter_bits.get() as u64,
            c.overflow_upper,
            args.overflow.unwrap_or_default(),
            c.expected_saturated
        )?;
    }
    if let Some(pl) = &rec.placement {
        writeln!(
            s,
            "  device {}: {} of {} block RAMs of {} bits -> {}",
            pl.device.description,
            pl.blocks_used,
            pl.device.blocks,
            pl.device.block_bits,
            if pl.fits { "fits" } else { "does NOT fit" }
        )?;
        if rec.layout == Layout::Standard {
            writeln!(
                s,
                "  (the hardware core implements the partitioned layout; the standard layout is for comparison)"
            )?;
        }
    }
    super::emit(&s)
}

/// A device's block RAMs as the sizing theory takes them, from the flow's device table.
fn block_rams(d: &flow::board::Device) -> BlockRams {
    BlockRams {
        name: d.name.to_string(),
        description: format!(
            "Lattice {} ({} block RAMs of {} bits)",
            d.part,
            d.usable_brams(),
            d.bram_bits
        ),
        block_bits: d.bram_bits as u64,
        blocks: d.usable_brams() as u64,
    }
}
