//! The counting core, `bloom_core` for counter bits c in 2..=8 (contract §7): the
//! plain core's control and ports plus a counter group, with counting partitions.
//!
//! - [`top`]: `CountingCore`, the top level;
//! - [`ops`]: the counting flags beside the control (which slot inserts, deletes,
//!   writes a counter);
//! - [`partition`]: one counting partition (hash unit, counter bank, read-modify-write),
//!   composed of [`addresses`] (its address per stage), [`forward`] (where its counter
//!   comes from), [`pre`] (the value forwarded from two to four slots ahead), [`choice`]
//!   (the counter of c5 and its alternative), [`write_back`] (c6 and c7) and [`counts`]
//!   (fill and saturated counts);
//! - [`counter_ram`]: a bank of 2^b counters of c bits;
//! - [`counter_step`]: a counter's increment and decrement, saturating;
//! - [`present_copy`], [`kept_or`]: small cells the partition keeps whole in synthesis.

pub mod addresses;
pub mod choice;
pub mod counter_ram;
pub mod counter_step;
pub mod counts;
pub mod forward;
pub mod kept_or;
pub mod ops;
pub mod partition;
pub mod pre;
pub mod present_copy;
pub mod top;
pub mod write_back;

pub use top::CountingCore;
