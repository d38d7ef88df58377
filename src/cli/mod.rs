//! One module per subcommand. Each exposes `Args` (clap) and `run(Args)`.

pub mod build;
pub mod config;
pub mod fmax;
pub mod fpr;
pub mod host;
pub mod image;
pub mod run;
pub mod sim;
pub mod size;
pub mod verilog;
