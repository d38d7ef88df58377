//! `bloom build` (not implemented yet).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`bloom build` is not implemented yet")
}
