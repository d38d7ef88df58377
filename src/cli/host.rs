//! `bloom host` (not implemented yet).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`bloom host` is not implemented yet")
}
