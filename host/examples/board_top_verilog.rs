//! Writes the board top Verilog for a configuration to stdout, for inspection:
//! `cargo run -p host --example board_top_verilog -- [clock_hz] [baud] > board.v`
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let clock: u64 = args
        .get(1)
        .map(|s| s.parse().expect("clock_hz"))
        .unwrap_or(12_000_000);
    let baud: u32 = args
        .get(2)
        .map(|s| s.parse().expect("baud"))
        .unwrap_or(115_200);
    let cfg = hdl::bridge::BoardTopConfig::new(hdl::CoreConfig::default(), clock, baud);
    match hdl::bridge::generate_board_top(&cfg) {
        Ok(g) => print!("{}", g.verilog),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
