//! Throughput over the simulated UART line at 115200 baud, as a fraction of
//! the raw line byte rate (key bytes delivered per byte time of the line), for
//! batch and single operations and every key width.
//!
//! `cargo run --release -p host --example line_throughput`
//!
//! Simulated time is exact (cycles / clocks per bit), so the figures do not
//! depend on the machine; the protocol counts bytes, so they hold at any baud.

use host::{Client, ClientOptions, SimBoard};

fn main() {
    let baud = 115_200u32;
    let cpb = 8;
    println!("key_bits  operation      keys  line_bits  key_bytes/line_bytes  keys/s@{baud}");
    for key_bits in [32u32, 64, 128] {
        let core = hdl::CoreConfig::from(hdl::CoreParams { k: 4, bank_bits: 10, key_bits, ..Default::default() });
        let board = match SimBoard::new(core, baud, cpb, hdl::bridge::DEFAULT_TIMEOUT_BITS) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        };
        let mut c = Client::connect(board, ClientOptions::default(), None).expect("connect");
        let mask = if key_bits == 128 { u128::MAX } else { (1u128 << key_bits) - 1 };
        let keys: Vec<u128> = (0..c.max_batch() as u128 * 16).map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)) & mask).collect();
        let kb = key_bits as f64 / 8.0;
        let report = |name: &str, n: usize, cycles: u64| {
            let bits = cycles as f64 / cpb as f64;
            println!(
                "{key_bits:>8}  {name:<13} {n:>5}  {bits:>9.0}  {:>19.1}%  {:>12.0}",
                100.0 * n as f64 * kb * 10.0 / bits,
                n as f64 / (bits / baud as f64)
            );
        };
        let c0 = c.transport().cycles();
        c.insert_batch(&keys).unwrap();
        report("insert batch", keys.len(), c.transport().cycles() - c0);
        let c0 = c.transport().cycles();
        c.query_batch(&keys).unwrap();
        report("query batch", keys.len(), c.transport().cycles() - c0);
        let c0 = c.transport().cycles();
        for k in &keys[..32] {
            c.insert(*k).unwrap();
        }
        report("insert", 32, c.transport().cycles() - c0);
        let c0 = c.transport().cycles();
        for k in &keys[..32] {
            c.query(*k).unwrap();
        }
        report("query", 32, c.transport().cycles() - c0);
    }
}
