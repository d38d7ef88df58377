//! Host throughput over the simulated UART line: keys per second of batch and
//! single inserts and queries, and the time to load a whole image, for the
//! default filter (k = 4, 4096-bit banks, 64-bit keys), at each line rate and
//! clocks-per-bit ratio asked for (a board's build report gives its ratio:
//! "N clocks per bit").
//!
//! `cargo run --release -p host --example line_throughput [BAUD:CLOCKS_PER_BIT ...]`
//! (default: 115200:104 and 3000000:4, a 12 MHz clock).
//!
//! Times are line time (simulated cycles / clock), exact and independent of
//! the machine: what a board at that clock does on a line that delivers bytes
//! as fast as the baud rate allows. A USB UART adds its own latency to every
//! turnaround (the host waits for each answer before the next frame); see
//! docs/protocol.md §9.

use host::{Client, ClientOptions, SimBoard};

fn main() {
    let points: Vec<(u32, u32)> = {
        let args: Vec<String> = std::env::args().skip(1).collect();
        if args.is_empty() {
            vec![(115_200, 104), (3_000_000, 4)]
        } else {
            args.iter()
                .map(|a| {
                    let parsed = a
                        .split_once(':')
                        .and_then(|(b, c)| Some((b.parse().ok()?, c.parse().ok()?)));
                    parsed.unwrap_or_else(|| {
                        eprintln!("error: {a:?}: expected BAUD:CLOCKS_PER_BIT, e.g. 3000000:14");
                        std::process::exit(2)
                    })
                })
                .collect()
        }
    };
    println!(
        "{:>8} {:>5} {:>9}  {:>13} {:>13} {:>13} {:>13}  {:>16}",
        "baud",
        "cpb",
        "clock MHz",
        "insert batch",
        "query batch",
        "insert",
        "query",
        "load-image 16 Kb"
    );
    for (baud, cpb) in points {
        let params = hdl::CoreParams::default();
        let board = match SimBoard::new(
            hdl::CoreConfig::from(params),
            baud,
            cpb,
            hdl::bridge::DEFAULT_TIMEOUT_BITS,
        ) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {baud} baud at {cpb} clocks per bit: {e}");
                std::process::exit(1);
            }
        };
        let mut c = Client::connect(board, ClientOptions::default(), None).expect("connect");
        let clock = baud as f64 * cpb as f64;
        let seconds = |c: &Client<SimBoard>, c0: u64| (c.transport().cycles() - c0) as f64 / clock;
        let mut rng = golden::rng::SplitMix64::new(1);
        let keys: Vec<u128> = (0..c.max_batch() * 24).map(|_| rng.key(64)).collect();
        let c0 = c.transport().cycles();
        c.insert_batch(&keys).unwrap();
        let insert_batch = keys.len() as f64 / seconds(&c, c0);
        let c0 = c.transport().cycles();
        c.query_batch(&keys).unwrap();
        let query_batch = keys.len() as f64 / seconds(&c, c0);
        let c0 = c.transport().cycles();
        for k in &keys[..40] {
            c.insert(*k).unwrap();
        }
        let insert = 40.0 / seconds(&c, c0);
        let c0 = c.transport().cycles();
        for k in &keys[..40] {
            c.query(*k).unwrap();
        }
        let query = 40.0 / seconds(&c, c0);
        let mut image = golden::PartitionedFilter::new(params);
        for _ in 0..2839 {
            image.insert(rng.key(64)).unwrap();
        }
        let c0 = c.transport().cycles();
        c.load_image(&image).unwrap();
        let load = seconds(&c, c0);
        assert_eq!(c.link.resends, 0, "a clean line needs no resend");
        println!(
            "{baud:>8} {cpb:>5} {:>9.3}  {insert_batch:>8.0} /s {query_batch:>8.0} /s {insert:>8.0} /s {query:>8.0} /s  {:>14.1} ms",
            clock / 1e6,
            load * 1e3
        );
    }
}
