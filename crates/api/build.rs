//! Embeds the web table's checked-in bundle (`web/dist/`, built by
//! `scripts/web-build.sh`; the server never needs Node) into the binary:
//! writes `$OUT_DIR/web_assets.rs`, a sorted table of `(file name, bytes)`
//! with one `include_bytes!` per file. No crate for it: the directory is
//! flat and small, and this is the whole of what `include_dir` would do.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::{env, fs};

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dist = manifest.join("../../web/dist");
    println!("cargo::rerun-if-changed={}", dist.display());
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let entries = fs::read_dir(&dist).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the web bundle is checked in; run scripts/web-build.sh)",
            dist.display()
        )
    });
    for entry in entries {
        let entry = entry.expect("readable web/dist entry");
        let path = entry.path();
        let name = entry.file_name().into_string().expect("UTF-8 file name");
        assert!(
            path.is_file(),
            "{}: web/dist is flat (files only)",
            path.display()
        );
        if name.starts_with('.') {
            continue;
        }
        let absolute = fs::canonicalize(&path).expect("canonical path");
        println!("cargo::rerun-if-changed={}", absolute.display());
        files.push((name, absolute));
    }
    files.sort();
    assert!(
        files.iter().any(|(name, _)| name == "index.html"),
        "web/dist has no index.html"
    );
    let mut out = String::from(
        "/// The web bundle (`web/dist/`), sorted by file name.\n\
         pub(crate) static ASSETS: &[(&str, &[u8])] = &[\n",
    );
    for (name, path) in &files {
        let path = path.to_str().expect("UTF-8 path");
        writeln!(out, "    ({name:?}, include_bytes!({path:?})),").expect("write to a String");
    }
    out.push_str("];\n");
    let target = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo")).join("web_assets.rs");
    fs::write(target, out).expect("write web_assets.rs");
}
