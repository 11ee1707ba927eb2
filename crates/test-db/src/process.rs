//! Small helpers of the cluster and the databases: unique names, running a
//! program, paths as the strings the PostgreSQL tools take.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT_ID: AtomicU32 = AtomicU32::new(0);

/// A name unique to this process and call: `prefix_<pid>_<n>_<nanos>`.
pub(crate) fn unique_name(prefix: &str) -> String {
    let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{prefix}_{}_{n}_{nanos}", std::process::id())
}

/// Runs `program` to completion, failing with its output on a non-zero exit.
pub(crate) fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", command.get_program()))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

pub(crate) fn path_str(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}
