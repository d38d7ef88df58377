//! `bloom sim` (not implemented yet).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`bloom sim` is not implemented yet")
}
