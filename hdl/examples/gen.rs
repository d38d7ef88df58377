use hdl::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cfg = CoreConfig {
        k: args[1].parse().unwrap(),
        bank_bits: args[2].parse().unwrap(),
        key_bits: args[3].parse().unwrap(),
        hash: args[4].parse().unwrap(),
        ..Default::default()
    };
    let g = generate_core(&cfg).unwrap();
    std::fs::write(&args[5], g.verilog).unwrap();
}
