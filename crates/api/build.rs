//! Embeds the web table's checked-in bundle (`web/dist/`, built by
//! `scripts/web-build.sh`; the server never needs Node) into the binary:
//! writes `$OUT_DIR/web_assets.rs`, a sorted table of assets with one
//! `include_bytes!` per file, and beside each text file its gzip and brotli
//! forms, compressed here once (pinned by Cargo.lock, so the same bundle
//! always gives the same bytes) and served by `routes/web.rs` to browsers
//! that accept them. No crate for the table: the directory is flat and
//! small, and this is the whole of what `include_dir` would do.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

/// Files worth compressing: text. Images are already compressed.
const COMPRESSIBLE: &[&str] = &["html", "js", "css", "svg", "json", "txt", "map"];

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo"));
    let dist = manifest.join("../../web/dist");
    println!("cargo::rerun-if-changed={}", dist.display());
    let compressed = out_dir.join("web-compressed");
    fs::create_dir_all(&compressed).expect("create OUT_DIR/web-compressed");
    let mut out = String::from(
        "/// The web bundle (`web/dist/`), sorted by file name.\n\
         pub(crate) static ASSETS: &[Asset] = &[\n",
    );
    for (name, path) in bundle(&dist) {
        let bytes = fs::read(&path).expect("readable web/dist file");
        let (gzip, brotli) = if is_compressible(&name) {
            let gzip = smaller(&bytes, gzip(&bytes), &compressed.join(format!("{name}.gz")));
            let brotli = smaller(
                &bytes,
                brotli(&bytes),
                &compressed.join(format!("{name}.br")),
            );
            (gzip, brotli)
        } else {
            (None, None)
        };
        let include = |p: &Option<PathBuf>| match p {
            Some(p) => format!(
                "Some(include_bytes!({:?}))",
                p.to_str().expect("UTF-8 path")
            ),
            None => "None".to_owned(),
        };
        writeln!(
            out,
            "    Asset {{ name: {name:?}, identity: include_bytes!({:?}), gzip: {}, brotli: {} }},",
            path.to_str().expect("UTF-8 path"),
            include(&gzip),
            include(&brotli),
        )
        .expect("write to a String");
    }
    out.push_str("];\n");
    fs::write(out_dir.join("web_assets.rs"), out).expect("write web_assets.rs");
}

/// `web/dist/`'s files (flat, dot-files skipped), sorted by name.
fn bundle(dist: &Path) -> Vec<(String, PathBuf)> {
    let entries = fs::read_dir(dist).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the web bundle is checked in; run scripts/web-build.sh)",
            dist.display()
        )
    });
    let mut files = Vec::new();
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
    files
}

fn is_compressible(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| COMPRESSIBLE.contains(&ext))
}

/// Writes `packed` to `path` and returns it, when it saves anything.
fn smaller(original: &[u8], packed: Vec<u8>, path: &Path) -> Option<PathBuf> {
    if packed.len() >= original.len() {
        return None;
    }
    fs::write(path, packed).expect("write a compressed asset");
    Some(path.to_owned())
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    // The header's mtime stays 0: the same input, the same bytes.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("gzip into memory");
    encoder.finish().expect("gzip into memory")
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    let mut packed = Vec::new();
    brotli::BrotliCompress(&mut &bytes[..], &mut packed, &params).expect("brotli into memory");
    packed
}
