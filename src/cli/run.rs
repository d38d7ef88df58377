//! `bloom run` (not implemented yet).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`bloom run` is not implemented yet")
}
