//! The core as IP for other people's designs.
//!
//! - [`vectors`]: portable test vectors of `bloom_axis` (the AXI wrapper,
//!   `hdl::axi`) from the golden model: `bloom vectors`;
//! - [`testbench`]: the self-checking plain-Verilog testbench that reads them;
//! - [`lane_vectors`], [`lane_testbench`]: the same for `bloom_lanes_axis`, L
//!   keys per beat (`bloom vectors --lanes L`), and [`lane_package`], its
//!   package (`bloom export --lanes L`);
//! - [`tools`]: the third-party tools the tests run, and a cache of their runs;
//! - [`package`]: the IP package `bloom export` writes (FuseSoC core, RTL,
//!   register map, testbench and vectors, board targets, README);
//!
//! The register map is ip/rdl/bloom_axis.rdl (SystemRDL); ip/rdl/regmap.py
//! generates hdl/src/axi/regmap.rs, the C header, the Markdown page and the
//! IP-XACT file from it (tests/regmap.rs checks they are up to date).

pub mod lane_package;
pub mod lane_testbench;
pub mod lane_vectors;
pub mod package;
pub mod testbench;
pub mod tools;
pub mod vectors;
