//! Elaboration (CoreConfig -> rust-hdl blocks) and Verilog generation with the module
//! names every user of the core relies on: top `bloom_core`, all others `bloom_core_*`.

use bloom_params::CoreParams;
use rust_hdl::prelude::*;
use serde::Serialize;

use crate::config::{CoreConfig, TestSwitches};
use crate::core::control::Control;
use crate::core::partition::Partition;
use crate::core::ram::BankRam;
use crate::core::BloomCore;
use crate::counting::counter_ram::CounterRam;
use crate::counting::partition::CountingPartition;
use crate::counting::CountingCore;
use crate::hash::HashUnit;
use crate::timing::Timing;
use crate::HdlError;

pub mod lint;
pub mod text;

pub(crate) use text::FlatBundle;
use text::{keep_hierarchy_of, keep_nets, rename_modules};

pub const TOP: &str = "bloom_core";

#[derive(Clone, Debug)]
pub struct GeneratedCore {
    /// Self-contained Verilog; top module `bloom_core`, every other module `bloom_core_*`.
    pub verilog: String,
    pub top: String,
    /// What it was generated from.
    pub config: CoreConfig,
    pub timing: Timing,
}

impl GeneratedCore {
    /// What `bloom verilog` writes beside the Verilog (`bloom_core.json`) and
    /// the flow's reports carry: configuration and timing.
    pub fn description(&self) -> CoreDescription {
        CoreDescription {
            top: self.top.clone(),
            params: self.config.params,
            preload: self
                .config
                .preload
                .as_ref()
                .map(|p| p.display().to_string()),
            timing: self.timing,
            scrub: self.config.scrub,
            scrub_every: self.config.scrub_every,
            test_switches: self.config.test_switches.clone(),
        }
    }
}

/// A generated core's configuration and timing, as one JSON object:
/// `top`, the parameters (`k`, `bank_bits`, ...), `preload`, the timing
/// (`latency`, `clear_cycles`, ...), `scrub` and `test_switches`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CoreDescription {
    pub top: String,
    #[serde(flatten)]
    pub params: CoreParams,
    pub preload: Option<String>,
    #[serde(flatten)]
    pub timing: Timing,
    /// The scrub is built (docs/contract.md §5.2; without it its ports read 0).
    pub scrub: bool,
    /// The periodic scrub's period in cycles, if any.
    pub scrub_every: Option<u32>,
    pub test_switches: TestSwitches,
}

/// A core variant as the generator builds it: the plain core (counter bits 1) or the
/// counting core (2..=8). The path from a configuration to Verilog ([`build`],
/// [`generate_core`]) is one, with the variant as its parameter; a variant says only
/// what is its own.
pub trait CoreVariant<const W: usize>: Block + Sized {
    /// One bank's initial contents, as an image gives them (bits, or counters).
    type Bank: Default;
    /// Refuses a configuration of the other variant.
    fn admits(cfg: &CoreConfig) -> Result<(), HdlError>;
    /// The preload image's banks, read and checked against `cfg`.
    fn read_image(dir: &std::path::Path, cfg: &CoreConfig) -> Result<Vec<Self::Bank>, HdlError>;
    /// The core: its control, and partition p of `bank(p)`'s hash unit and initial contents.
    fn assemble(
        cfg: &CoreConfig,
        bank: impl FnMut(usize) -> (HashUnit<W>, Option<Self::Bank>),
    ) -> Self;
    /// The variant's own synthesis marks on the Verilog rust-hdl prints (before renaming).
    fn mark_for_synthesis(verilog: String) -> String {
        verilog
    }
}

impl<const W: usize> CoreVariant<W> for BloomCore<W> {
    type Bank = Vec<bool>;

    fn admits(cfg: &CoreConfig) -> Result<(), HdlError> {
        if cfg.params.counter_bits != 1 {
            return Err(HdlError::Config(
                "a plain core needs counter_bits = 1".into(),
            ));
        }
        Ok(())
    }

    fn read_image(dir: &std::path::Path, cfg: &CoreConfig) -> Result<Vec<Vec<bool>>, HdlError> {
        crate::image::read_image(dir, cfg)
    }

    fn assemble(
        cfg: &CoreConfig,
        bank: impl FnMut(usize) -> (HashUnit<W>, Option<Vec<bool>>),
    ) -> Self {
        BloomCore::new(
            Control::new(
                cfg.bank_bits(),
                0,
                cfg.scrub,
                cfg.scrub_every,
                crate::hash::feistel::FeistelNetwork::of(cfg),
            ),
            plain_partitions(cfg, bank),
        )
    }
}

/// A bank's part of the scrub in a core of `cfg`.
fn bank_scrub(cfg: &CoreConfig) -> crate::core::partition::BankScrub {
    crate::core::partition::BankScrub {
        built: cfg.scrub,
        correction: !cfg.test_switches.disable_scrub_correction,
    }
}

/// The k partitions of a plain core for `cfg`: partition p of `bank(p)`'s hash unit and
/// initial contents.
pub(crate) fn plain_partitions<const W: usize>(
    cfg: &CoreConfig,
    mut bank: impl FnMut(usize) -> (HashUnit<W>, Option<Vec<bool>>),
) -> Vec<Partition<W>> {
    (0..cfg.k())
        .map(|p| {
            let (hash, initial) = bank(p);
            Partition::new(
                p,
                hash,
                BankRam::new(cfg.bank_bits(), initial),
                cfg.bank_bits(),
                !cfg.test_switches.disable_forwarding,
                bank_scrub(cfg),
            )
        })
        .collect()
}

impl<const W: usize> CoreVariant<W> for CountingCore<W> {
    type Bank = Vec<u8>;

    fn admits(cfg: &CoreConfig) -> Result<(), HdlError> {
        if cfg.params.counter_bits < 2 {
            return Err(HdlError::Config(
                "a counting core needs counter_bits >= 2".into(),
            ));
        }
        Ok(())
    }

    /// A counting image of the same counter width.
    fn read_image(dir: &std::path::Path, cfg: &CoreConfig) -> Result<Vec<Vec<u8>>, HdlError> {
        crate::image::read_counter_image(dir, &cfg.params)
    }

    fn assemble(
        cfg: &CoreConfig,
        mut bank: impl FnMut(usize) -> (HashUnit<W>, Option<Vec<u8>>),
    ) -> Self {
        let c = cfg.params.counter_bits as usize;
        let parts = (0..cfg.k())
            .map(|p| {
                let (hash, initial) = bank(p);
                CountingPartition::new(
                    p,
                    cfg.k(),
                    hash,
                    CounterRam::new(cfg.bank_bits(), c, initial),
                    !cfg.test_switches.disable_forwarding,
                    !cfg.test_switches.disable_delete_forwarding,
                    bank_scrub(cfg),
                )
            })
            .collect();
        CountingCore::new(
            Control::new(
                cfg.bank_bits(),
                crate::timing::COUNTING_COUNT_DELAY as usize,
                cfg.scrub,
                cfg.scrub_every,
                crate::hash::feistel::FeistelNetwork::of(cfg),
            ),
            parts,
            cfg.params.hash,
        )
    }

    fn mark_for_synthesis(verilog: String) -> String {
        keep_counting_for_synthesis(&verilog)
    }
}

/// Builds the rust-hdl model of variant `V` of the core for `cfg` (W must equal
/// cfg.key_bits). The preload image, if any, is read and checked here.
pub fn build<const W: usize, V: CoreVariant<W>>(cfg: &CoreConfig) -> Result<V, HdlError> {
    cfg.validate()?;
    if cfg.key_bits() != W {
        return Err(HdlError::Config(format!(
            "key_bits = {} built with W = {W}",
            cfg.key_bits()
        )));
    }
    V::admits(cfg)?;
    let mut image = match &cfg.preload {
        Some(dir) => Some(V::read_image(dir, cfg)?),
        None => None,
    };
    let mut core = V::assemble(cfg, |p| {
        (
            HashUnit::<W>::for_partition(cfg, p),
            image.as_mut().map(|banks| std::mem::take(&mut banks[p])),
        )
    });
    core.connect_all();
    Ok(core)
}

/// The Verilog of variant `V` for `cfg`, as rust-hdl prints it with the variant's marks.
pub(crate) fn verilog_of<const W: usize, V: CoreVariant<W>>(
    cfg: &CoreConfig,
) -> Result<String, HdlError> {
    let core = build::<W, V>(cfg)?;
    Ok(V::mark_for_synthesis(generate_verilog(&core)))
}

/// The variant `cfg` asks for, at key width W.
fn verilog_of_width<const W: usize>(cfg: &CoreConfig) -> Result<String, HdlError> {
    if cfg.params.counter_bits > 1 {
        verilog_of::<W, CountingCore<W>>(cfg)
    } else {
        verilog_of::<W, BloomCore<W>>(cfg)
    }
}

pub fn generate_core(cfg: &CoreConfig) -> Result<GeneratedCore, HdlError> {
    cfg.validate()?;
    let raw = match cfg.key_bits() {
        32 => verilog_of_width::<32>(cfg)?,
        64 => verilog_of_width::<64>(cfg)?,
        128 => verilog_of_width::<128>(cfg)?,
        other => unreachable!("validate() admits key_bits {other}"),
    };
    let verilog = rename_modules(&raw, TOP, &flat_bundles())?;
    let verilog = keep_whole(&verilog, cfg.params.counter_bits > 1, cfg.params.hash);
    Ok(GeneratedCore {
        verilog,
        top: TOP.to_string(),
        config: cfg.clone(),
        timing: Timing::of(&cfg.params),
    })
}

/// `verilog` (a core's, modules renamed) with these modules marked
/// `(* keep_hierarchy *)`, so that synthesis maps each on its own, whatever
/// logic surrounds the core:
/// - every hash unit (`{TOP}_parts_{p}_hash`): two LUT4 levels per 16-bit
///   chunk of its XOR trees (hash/unit.rs). Flattened with the rest, ABC
///   shared XOR terms across the units and mapped them anew in every design:
///   two levels in the core alone, but three for 126 of the 192 chunk parities
///   of the default core inside `bloom_axis` on iCE40 (three or four for 128 in
///   a variant of the wrapper, where they were the slowest path of 5 UP5K
///   seeds in 10). The cost is the sharing: 98 LUT4 more for the default core
///   on iCE40 (1031, not 933).
/// - a plain core's response FIFO (`{TOP}_control_fifo`): its head, an AND-OR
///   of the eight entries, two LUT4 levels. Flattened, ABC mapped it in two
///   levels inside `bloom_axis` until an unrelated change to the wrapper's
///   write side, then in three, the slowest path of the wrapper in 9 UP5K
///   seeds of 10 (median 68.47 MHz, not 73.93). Kept, 3 LUT4 more (1034); the
///   core's UP5K median over 10 seeds 87.98 MHz (86.00 before), the wrapper's
///   74.88 (73.93), on HX8K over 15 seeds 217.72 (217.91) and 177.65 (176.12).
///   Not a counting core's: kept there, its HX8K median over 100 seeds fell to
///   165.53 MHz (168.47), 0.902 of the block-RAM loop, 95% interval
///   0.891..0.921 (0.918, 0.902..0.935 flattened).
///
/// `bloom_lanes` holds its lane 0 without them (hdl/src/lanes/lane0.rs).
///
/// - a Feistel core's network (`{TOP}_control_hash`, hash/feistel.rs): two rounds, two
///   LUT4 levels, between its registers; kept, it is also what `bloom fmax` counts as
///   the core's hash logic (its units only select bits).
///
/// Not an SPN core's hash units: each holds the same registered rounds on the
/// same key register (hash/spn.rs), which synthesis merges across the partitions only
/// when they are flattened.
fn keep_whole(verilog: &str, counting: bool, family: bloom_params::HashFamily) -> String {
    use bloom_params::HashFamily::{Feistel, Spn};
    keep_hierarchy_of(verilog, |m| {
        (is_kept_whole(m, counting) && !(family == Spn && is_hash_unit(m)))
            || (family == Feistel && m == format!("{TOP}_control_hash"))
    })
}

/// A module [`keep_whole`] keeps whole in a plain core (`counting` false) or a
/// counting core.
fn is_kept_whole(module: &str, counting: bool) -> bool {
    is_hash_unit(module) || (!counting && is_response_fifo(module))
}

/// `{TOP}_parts_{p}_hash`: a hash unit's module, after [`rename_modules`].
fn is_hash_unit(module: &str) -> bool {
    module
        .strip_prefix(&format!("{TOP}_parts_"))
        .and_then(|rest| rest.strip_suffix("_hash"))
        .is_some_and(|p| p.parse::<usize>().is_ok())
}

/// `{TOP}_control_fifo`: the response FIFO's module, after [`rename_modules`].
fn is_response_fifo(module: &str) -> bool {
    module == format!("{TOP}_control_fifo")
}

/// The port bundles whose signals are printed flat: (the bundle's field name
/// in its block, the Verilog prefix, its fields). rust-hdl prints a bundle's
/// signal as `bundle$field`; the generator prints `{prefix}_{field}` (or the
/// field alone), the names the core's ports and internal signals had before
/// they were bundles, so the Verilog (and every name in a netlist or a timing
/// report) is the same whatever the Rust groups together.
pub(crate) fn flat_bundles() -> Vec<FlatBundle> {
    let mut b: Vec<_> = crate::ports::groups()
        .into_iter()
        .map(|g| {
            (
                g.path.rsplit('$').next().unwrap_or(g.path),
                g.prefix,
                g.fields,
            )
        })
        .collect();
    let counter = crate::ports::counter_group();
    b.push((
        counter.path.rsplit('$').next().unwrap_or(counter.path),
        counter.prefix,
        counter.fields,
    ));
    b.push((
        "banks",
        "",
        crate::core::partition::FromControl::<1>::FIELDS,
    ));
    b.push((
        "control",
        "",
        crate::core::partition::FromControl::<1>::FIELDS,
    ));
    b.push((
        "lane_tap",
        "lane_tap",
        crate::core::control::LaneTap::<1>::FIELDS,
    ));
    b
}

/// `verilog` (a counting core's) with the nets of `PRESENT_NETS` marked `(* keep *)`,
/// each bank's input of the AND over the banks (`term5`), so that synthesis keeps it
/// whole in its bank instead of spreading its logic over the AND's tree, and the
/// modules of every bank's `KEPT_MODULES` marked `(* keep_hierarchy *)` (Yosys merges
/// identical flip-flops, and restructures logic, but not across a kept module's
/// boundary). Both lists and why: counting/partition.rs.
pub(crate) fn keep_counting_for_synthesis(verilog: &str) -> String {
    use crate::counting::partition::{KEPT_MODULES, PRESENT_NETS};
    let v = keep_nets(verilog, PRESENT_NETS.iter().map(|n| ("reg", n.to_string())));
    let v = keep_hierarchy_of(&v, |name| {
        // top$parts$P$<a path of KEPT_MODULES>
        let mut path = name.splitn(4, '$');
        path.next() == Some("top")
            && path.next() == Some("parts")
            && path.next().is_some_and(|p| p.parse::<usize>().is_ok())
            && path.next().is_some_and(|rest| KEPT_MODULES.contains(&rest))
    });
    keep_nets(&v, (0..16).map(|p| ("wire", format!("parts${p}$term5"))))
}
