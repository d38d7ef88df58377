//! The plain core, `bloom_core` (counter bits c = 1): its top level and its parts.
//!
//! - [`top`]: `BloomCore`, the top level, its pipeline and exact timing;
//! - [`control`]: admission, readback, responses, composed with [`stages`] (the operation
//!   registers beside the data path), [`sweep`] (the clear sweep and the recount after
//!   reset), [`scrub`] (the scrub's slots, pointer, start and end), [`response_fifo`]
//!   and [`request_line`] (the cycles a hash network needs beyond H3's, in front of the
//!   stages);
//! - [`scrub_compare`]: a bank's scrub result and power-up check (plain and counting);
//! - [`glue`]: the wiring of ports, control and banks every variant shares;
//! - [`partition`]: one partition (hash unit + bank + forwarding + fill counter);
//! - [`ram`]: a bank, 2^b x 1 block RAM (the only technology-specific block);
//! - [`response_fifo`]: the response queue in front of `resp_*`;
//! - [`sim`]: a cycle-by-cycle driver of the core in rust-hdl's simulator.
//!
//! The counting core (`crate::counting`) is built from the same control and
//! the same ports.

pub mod control;
pub mod glue;
pub mod partition;
pub mod ram;
pub mod request_line;
pub mod response_fifo;
pub mod scrub;
pub mod scrub_compare;
pub mod sim;
pub mod stages;
pub mod sweep;
pub mod top;

pub use top::BloomCore;
