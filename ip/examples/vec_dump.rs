fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(&args[1]);
    let ops: u64 = args[2].parse().unwrap();
    let k: u32 = args.get(3).map_or(4, |s| s.parse().unwrap());
    let b: u32 = args.get(4).map_or(12, |s| s.parse().unwrap());
    let w: u32 = args.get(5).map_or(64, |s| s.parse().unwrap());
    let params = hdl::CoreParams::new(k, b, w, hdl::HashFamily::H3, 7).unwrap();
    let v = ip::vectors::generate(
        &params,
        ip::vectors::empty_filter(&params).unwrap(),
        &ip::vectors::VectorOptions::new(ops, 1),
    )
    .unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.hex"), v.config_hex()).unwrap();
    std::fs::write(dir.join("stim.hex"), v.stim_hex()).unwrap();
    std::fs::write(dir.join("expect.hex"), v.expect_hex()).unwrap();
    std::fs::write(dir.join("tb_bloom_axis.v"), ip::testbench::testbench(w, &v)).unwrap();
    let g = hdl::axi::generate_axi(&params.into()).unwrap();
    std::fs::write(dir.join("bloom_axis.v"), &g.verilog).unwrap();
    std::fs::write(dir.join("bloom_core.v"), &g.core.verilog).unwrap();
    println!(
        "{}",
        serde_json::to_string_pretty(&v.summary_json()).unwrap()
    );
}
