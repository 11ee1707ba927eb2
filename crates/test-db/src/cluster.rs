//! A private PostgreSQL cluster for one test process.

use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::{path_str, run, unique_name};

/// A running cluster in a temp dir, owned by an unprivileged user when we are
/// root. A watchdog shell stops and deletes it once this process has exited.
#[derive(Debug)]
pub(crate) struct PrivateCluster {
    port: u16,
}

/// The server settings of every private cluster: throwaway data, so no
/// fsync; room for many test servers' pools.
fn server_options(port: u16, dir: &Path) -> String {
    format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off \
         -c synchronous_commit=off -c full_page_writes=off -c max_connections=300",
        path_str(dir)
    )
}

/// Starts the server of `data` (logging to `dir/postgres.log`) with
/// `options`, waiting until it accepts connections.
fn pg_ctl_start(
    owner: &RunAs,
    bin: &Path,
    dir: &Path,
    data: &Path,
    options: &str,
) -> Result<(), String> {
    let log = dir.join("postgres.log");
    run(
        owner
            .command(&bin.join("pg_ctl"))
            .args(["-D", path_str(data), "-l", path_str(&log), "-o", options])
            .args(["-w", "-t", "60", "start"]),
        "pg_ctl start",
    )
    .map_err(|e| {
        let log = std::fs::read_to_string(&log).unwrap_or_default();
        format!("{e}\nserver log:\n{log}")
    })
}

impl PrivateCluster {
    pub(crate) fn start() -> Result<PrivateCluster, String> {
        let bin = postgres_bin_dir()?;
        let dir = std::env::temp_dir().join(unique_name("cardgames-pg"));
        let data = dir.join("data");
        std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
        let owner = RunAs::detect()?;
        owner.take_ownership(&dir)?;

        let initdb = bin.join("initdb");
        run(
            owner
                .command(&initdb)
                .args(["--auth=trust", "--username=postgres", "--encoding=UTF8"])
                .args(["--no-sync", "--no-instructions", "-D", path_str(&data)]),
            "initdb",
        )?;

        let port = free_port()?;
        pg_ctl_start(&owner, &bin, &dir, &data, &server_options(port, &dir))?;
        spawn_watchdog(&dir, &data)?;
        Ok(PrivateCluster { port })
    }

    /// A hot standby of this cluster, streaming from it: a base backup
    /// (`pg_basebackup -R`, which writes the standby's connection to it)
    /// started on a port of its own. Removed by a watchdog like its
    /// primary.
    pub(crate) fn start_standby(&self) -> Result<PrivateCluster, String> {
        let bin = postgres_bin_dir()?;
        let dir = std::env::temp_dir().join(unique_name("cardgames-standby"));
        let data = dir.join("data");
        std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
        let owner = RunAs::detect()?;
        owner.take_ownership(&dir)?;
        let primary_port = self.port.to_string();
        run(
            owner
                .command(&bin.join("pg_basebackup"))
                .args(["-h", "127.0.0.1", "-p", &primary_port, "-U", "postgres"])
                .args([
                    "-D",
                    path_str(&data),
                    "-R",
                    "-X",
                    "stream",
                    "-c",
                    "fast",
                    "--no-sync",
                ]),
            "pg_basebackup",
        )?;
        let port = free_port()?;
        let options = format!(
            "{} -c hot_standby=on -c hot_standby_feedback=on",
            server_options(port, &dir)
        );
        pg_ctl_start(&owner, &bin, &dir, &data, &options)?;
        spawn_watchdog(&dir, &data)?;
        Ok(PrivateCluster { port })
    }

    pub(crate) fn admin_url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

/// Where `initdb` and `pg_ctl` live: `PG_BIN`, the newest
/// `/usr/lib/postgresql/<version>/bin` (Debian), or `PATH`.
fn postgres_bin_dir() -> Result<PathBuf, String> {
    if let Ok(dir) = std::env::var("PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Ok(bin);
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .find(|dir| dir.join("initdb").exists());
    on_path.ok_or_else(|| {
        "no PostgreSQL server binaries (initdb, pg_ctl) found: install PostgreSQL, \
         set PG_BIN to their directory, or set TEST_DATABASE_URL"
            .to_owned()
    })
}

/// Who runs the cluster: ourselves, or (as root) the `postgres` or `nobody` user.
enum RunAs {
    Me,
    User { name: String, uid: u32, gid: u32 },
}

impl RunAs {
    fn detect() -> Result<RunAs, String> {
        if !running_as_root() {
            return Ok(RunAs::Me);
        }
        let passwd =
            std::fs::read_to_string("/etc/passwd").map_err(|e| format!("/etc/passwd: {e}"))?;
        for wanted in ["postgres", "nobody"] {
            for line in passwd.lines() {
                let fields: Vec<&str> = line.split(':').collect();
                if fields.len() > 3 && fields[0] == wanted {
                    let (Ok(uid), Ok(gid)) = (fields[2].parse(), fields[3].parse()) else {
                        continue;
                    };
                    return Ok(RunAs::User {
                        name: wanted.to_owned(),
                        uid,
                        gid,
                    });
                }
            }
        }
        Err("running as root and no `postgres` or `nobody` user to run PostgreSQL as".to_owned())
    }

    fn take_ownership(&self, dir: &Path) -> Result<(), String> {
        match self {
            RunAs::Me => Ok(()),
            RunAs::User { uid, gid, .. } => std::os::unix::fs::chown(dir, Some(*uid), Some(*gid))
                .map_err(|e| format!("chown {}: {e}", dir.display())),
        }
    }

    fn command(&self, program: &Path) -> Command {
        match self {
            RunAs::Me => Command::new(program),
            RunAs::User { name, .. } => {
                let mut command = Command::new("runuser");
                command.args(["-u", name, "--"]).arg(program);
                command
            }
        }
    }
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| format!("bind: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("local_addr: {e}"))
}

/// A detached shell that waits for this process to exit, then stops the
/// server (immediate shutdown: the data is throwaway) and deletes `dir`.
fn spawn_watchdog(dir: &Path, data: &Path) -> Result<(), String> {
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
         pm=$(head -n 1 '{data}/postmaster.pid' 2>/dev/null); \
         [ -n \"$pm\" ] && kill -QUIT \"$pm\" 2>/dev/null; \
         for _ in 1 2 3 4 5 6 7 8 9 10; do [ -e '{data}/postmaster.pid' ] || break; sleep 0.5; done; \
         rm -rf '{dir}'",
        pid = std::process::id(),
        data = path_str(data),
        dir = path_str(dir),
    );
    Command::new("setsid")
        .args(["sh", "-c", &script])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| format!("start the cleanup watchdog: {e}"))
}
