//! docs/axi.md's port and register tables are generated from their
//! declarations (hdl/src/axi/interface.rs, the register map generated from
//! ip/rdl/bloom_axis.rdl): this test fails when the page differs, and rewrites
//! it with `BLOOM_UPDATE_SNAPSHOTS=1`.

use hdl::doc_page::DocPage;
use std::path::PathBuf;

#[test]
fn port_and_register_tables_match_their_declarations() {
    let mut doc = DocPage::open(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/axi.md"),
        "docs/axi.md",
        "cargo test -p ip --test axi_doc",
    );
    let ports = hdl::ports::markdown_table_of(&hdl::axi::axi_ports(&hdl::CoreParams::default()));
    doc.section("ports", &ports, "the declarations");
    doc.section(
        "registers",
        &ip::package::register_table(),
        "the declarations",
    );
    doc.finish();
}
