//! A throwaway PostgreSQL cluster: `initdb` into a temporary directory as an
//! unprivileged user, `pg_ctl start` on a free port with its unix socket in that
//! directory, and a guard that stops the server and removes the directory on drop
//! (an error, a panic that unwinds) whatever happened in between.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// PostgreSQL's binaries: the newest `/usr/lib/postgresql/N/bin` (Debian's layout),
/// or the directory of a `pg_ctl` on `PATH`.
pub fn find_binaries() -> Option<PathBuf> {
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .and_then(|dirs| {
            dirs.filter_map(|d| d.ok())
                .filter_map(|d| {
                    let version: u32 = d.file_name().to_str()?.parse().ok()?;
                    let bin = d.path().join("bin");
                    bin.join("pg_ctl").is_file().then_some((version, bin))
                })
                .max()
                .map(|(_, bin)| bin)
        });
    debian.or_else(|| {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .find(|dir| dir.join("pg_ctl").is_file() && dir.join("initdb").is_file())
    })
}

pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    /// Who runs the server: `postgres` when we are root (initdb refuses root).
    user: Option<String>,
    port: u16,
    started: bool,
}

impl Cluster {
    /// Creates and starts a cluster; on failure nothing is left running or on disk.
    pub fn start(bin: &Path) -> Result<Cluster, String> {
        let dir = std::env::temp_dir().join(format!("lockstep-fidelity-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let user = is_root().then(|| "postgres".to_string());
        let mut cluster = Cluster {
            dir,
            bin: bin.to_path_buf(),
            user,
            port: free_port()?,
            started: false,
        };
        if let Some(user) = &cluster.user {
            run(Command::new("chown").arg(user).arg(&cluster.dir))?;
        }
        let data = cluster.dir.join("data");
        run(cluster.command("initdb").arg("-D").arg(&data).args([
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            // The simulator's collation (byte order), whatever the machine's locale.
            "--locale=C",
            "--no-sync",
        ]))?;
        // Only the unix socket in our directory: nothing else on the machine can reach
        // it. fsync off: the cluster is thrown away, and lock timing does not depend on it.
        // pg_stat_statements counts each role's shared buffers (`real.rs`); it counts the
        // executor's only (track_planning off), as EXPLAIN (ANALYZE, BUFFERS) does.
        let options = format!(
            "-c listen_addresses='' -k {} -p {} -c fsync=off -c max_connections=40 \
             -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top \
             -c pg_stat_statements.track_planning=off",
            cluster.dir.display(),
            cluster.port
        );
        cluster.started = true;
        run(cluster
            .command("pg_ctl")
            .arg("-D")
            .arg(&data)
            .args(["-o", &options, "-l"])
            .arg(cluster.dir.join("server.log"))
            .args(["-w", "-t", "60", "start"]))?;
        Ok(cluster)
    }

    /// Connection settings for `database` as the superuser `postgres`.
    pub fn config(&self, database: &str) -> postgres::Config {
        self.config_as(database, "postgres")
    }

    /// Connection settings for `database` as `user`.
    pub fn config_as(&self, database: &str, user: &str) -> postgres::Config {
        let mut config = postgres::Config::new();
        config
            .host_path(&self.dir)
            .port(self.port)
            .user(user)
            .dbname(database);
        config
    }

    fn command(&self, program: &str) -> Command {
        let exe = self.bin.join(program);
        let mut cmd = match &self.user {
            Some(user) => {
                let mut cmd = Command::new("runuser");
                cmd.args(["-u", user, "--"]).arg(exe);
                cmd
            }
            None => Command::new(exe),
        };
        cmd.current_dir(&self.dir);
        cmd
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.started {
            let data = self.dir.join("data");
            let stopped = run(self.command("pg_ctl").arg("-D").arg(&data).args([
                "-m",
                "immediate",
                "-w",
                "stop",
            ]));
            if let Err(e) = stopped {
                eprintln!("fidelity: stopping the server: {e}");
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A port nobody listens on now (the socket name includes it).
fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{:?}: {e}", cmd.get_program()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{:?} {:?} failed ({}): {}{}",
            cmd.get_program(),
            cmd.get_args().collect::<Vec<_>>(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
