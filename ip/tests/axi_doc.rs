//! docs/axi.md's port and register tables are generated from their
//! declarations (hdl/src/axi/interface.rs, the register map generated from
//! ip/rdl/bloom_axis.rdl): this test fails when the page differs, and rewrites
//! it with `BLOOM_UPDATE_SNAPSHOTS=1`.

use std::path::PathBuf;

/// Replaces (or checks) the text between `<!-- NAME:begin -->` and `<!-- NAME:end -->`.
fn section(doc: &mut String, name: &str, table: &str, update: bool) {
    let range =
        hdl::ports::generated_section(doc, "docs/axi.md", name).unwrap_or_else(|e| panic!("{e}"));
    if update {
        doc.replace_range(range, table);
    } else {
        assert_eq!(
            &doc[range],
            table,
            "docs/axi.md's {name} table differs from the declarations; regenerate with BLOOM_UPDATE_SNAPSHOTS=1 cargo test -p ip --test axi_doc"
        );
    }
}

#[test]
fn port_and_register_tables_match_their_declarations() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/axi.md");
    let mut doc = std::fs::read_to_string(&path).unwrap();
    let update = std::env::var("BLOOM_UPDATE_SNAPSHOTS").as_deref() == Ok("1");
    let ports = hdl::ports::markdown_table_of(&hdl::axi::axi_ports(&hdl::CoreParams::default()));
    section(&mut doc, "ports", &ports, update);
    section(
        &mut doc,
        "registers",
        &ip::package::register_table(),
        update,
    );
    if update {
        std::fs::write(&path, doc).unwrap();
    }
}
