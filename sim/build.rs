//! The target triple this crate is built for: the Verilated models are
//! compiled at run time (with the `cc` crate) for the same machine.
fn main() {
    let target = std::env::var("TARGET").expect("cargo sets TARGET for build scripts");
    println!("cargo:rustc-env=BLOOM_SIM_TARGET={target}");
    println!("cargo:rerun-if-changed=build.rs");
}
