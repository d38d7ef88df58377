//! `bloom verilog` (not implemented yet).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`bloom verilog` is not implemented yet")
}
