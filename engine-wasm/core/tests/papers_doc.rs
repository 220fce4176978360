//! docs/papers.md is the paper catalogue (core/labs/paper.json) in words:
//! every document cites the papers by the short names listed there. The
//! page is rendered from the catalogue, so it cannot drift from what the
//! app and `sawtooth fidelity` print. `SAWTOOTH_UPDATE_DOCS=1 cargo test
//! --test papers_doc` rewrites it.

use sawtooth_core::labs::{self, paper};

fn render() -> String {
    let mut out = String::from(
        "# The papers\n\n\
         The publications the guided labs reproduce or compare with, as the app and \
         `sawtooth fidelity` cite them (written from `engine-wasm/core/labs/paper.json` \
         by `core/tests/papers_doc.rs`; edit the catalogue, not this page).\n\n\
         | cited as | authors | title | published by | year |\n|---|---|---|---|---|\n",
    );
    let mut notes = Vec::new();
    for p in &paper().papers {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            p.short, p.authors, p.title, p.publisher, p.year
        ));
        if let Some(n) = &p.note {
            notes.push(format!("- **{}:** {}\n", p.short, n));
        }
    }
    if !notes.is_empty() {
        out.push_str("\nWhat the copies used leave open:\n\n");
        out.extend(notes);
    }
    out
}

#[test]
fn docs_papers_md_is_the_catalogue() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/papers.md");
    let want = render();
    if std::env::var_os("SAWTOOTH_UPDATE_DOCS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "docs/papers.md differs from the paper catalogue; run SAWTOOTH_UPDATE_DOCS=1 cargo test --test papers_doc"
    );
}

#[test]
fn reports_cite_every_source_by_its_catalogue_name() {
    for p in &paper().papers {
        assert_eq!(labs::source_name(&p.seed), p.short);
    }
    for l in &labs::labs().labs {
        for s in &l.sources {
            let name = labs::source_name(&s.seed);
            assert_ne!(
                name, s.seed,
                "lab {}: source {} is not in the catalogue",
                l.id, s.seed
            );
        }
    }
}
