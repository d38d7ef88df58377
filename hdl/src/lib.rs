//! Rust-HDL core.
