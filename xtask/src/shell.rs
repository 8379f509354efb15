//! Running child processes from the repository root, with the project's tools on PATH.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub type Result<T = ()> = std::result::Result<T, String>;

pub struct Shell {
    root: PathBuf,
    cargo: OsString,
    path: OsString,
}

/// What a command printed on stdout (echoed live as well) and how it ended.
pub struct Captured {
    pub result: Result,
    pub stdout: String,
}

impl Shell {
    pub fn new() -> Shell {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask/ lives in the repository root")
            .to_path_buf();
        // `cargo install` puts binaries here; it is often not on PATH in CI or a fresh shell.
        let cargo_bin = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
            .unwrap_or_else(|| PathBuf::from(".cargo"))
            .join("bin");
        // node_modules/.bin first: Trunk must find npm's wasm-opt (binaryen 132), not an
        // older system one, because it checks `wasm-opt --version` against Trunk.toml.
        let mut dirs = vec![root.join("node_modules").join(".bin"), cargo_bin];
        if let Some(path) = std::env::var_os("PATH") {
            dirs.extend(std::env::split_paths(&path));
        }
        let path = std::env::join_paths(dirs).expect("PATH entries contain no separator");
        // The cargo that runs xtask, so every step uses the same toolchain.
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        Shell { root, cargo, path }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn cmd(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.root)
            .env("PATH", &self.path)
            // Trunk would otherwise ask the network for a newer version on every run.
            .env("TRUNK_SKIP_VERSION_CHECK", "true");
        cmd
    }

    pub fn cargo(&self) -> Command {
        self.cmd(&self.cargo)
    }

    /// Runs `cmd` with inherited output; an error if it cannot start or exits non-zero.
    pub fn status(&self, cmd: &mut Command) -> Result {
        println!("$ {}", display(cmd));
        let status = cmd.status().map_err(|err| spawn_error(cmd, err))?;
        check(cmd, status)
    }

    /// Like [`Shell::status`], and also returns what the command printed on stdout.
    pub fn status_capture(&self, cmd: &mut Command) -> Captured {
        println!("$ {}", display(cmd));
        let mut child = match cmd.stdout(Stdio::piped()).spawn() {
            Ok(child) => child,
            Err(err) => {
                return Captured {
                    result: Err(spawn_error(cmd, err)),
                    stdout: String::new(),
                }
            }
        };
        let mut stdout = String::new();
        let reader = BufReader::new(child.stdout.take().expect("stdout is piped"));
        for line in reader.lines().map_while(std::result::Result::ok) {
            println!("{line}");
            stdout.push_str(&line);
            stdout.push('\n');
        }
        let _ = std::io::stdout().flush();
        let result = match child.wait() {
            Ok(status) => check(cmd, status),
            Err(err) => Err(format!("`{}`: {err}", display(cmd))),
        };
        Captured { result, stdout }
    }

    /// Runs `cmd` (stderr inherited) and returns its stdout; an error if it fails.
    pub fn read(&self, cmd: &mut Command) -> Result<String> {
        println!("$ {}", display(cmd));
        let output = cmd
            .stderr(Stdio::inherit())
            .output()
            .map_err(|err| spawn_error(cmd, err))?;
        check(cmd, output.status)?;
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// Runs `cmd` quietly and returns its trimmed stdout, or `None` if it is missing or
    /// fails: for probing what is installed.
    pub fn probe(&self, cmd: &mut Command) -> Option<String> {
        let output = cmd.stderr(Stdio::null()).output().ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
    }
}

fn check(cmd: &Command, status: std::process::ExitStatus) -> Result {
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", display(cmd)))
    }
}

fn spawn_error(cmd: &Command, err: std::io::Error) -> String {
    format!(
        "could not start `{}`: {err}",
        cmd.get_program().to_string_lossy()
    )
}

pub fn display(cmd: &Command) -> String {
    let program = Path::new(cmd.get_program())
        .file_name()
        .unwrap_or(cmd.get_program())
        .to_string_lossy()
        .into_owned();
    std::iter::once(program)
        .chain(cmd.get_args().map(|arg| arg.to_string_lossy().into_owned()))
        .collect::<Vec<_>>()
        .join(" ")
}
