//! Installs what the build and tests need, each only when missing or at the wrong
//! version, saying what it installs and why. Safe to run again and again: when all is
//! present it only probes versions (well under a second, plus `cargo fetch`).

use std::path::Path;

use crate::shell::{Result, Shell};

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// The 0.22 line needs a newer rustc than our machines have.
pub const TRUNK_VERSION: &str = "0.21.14";
/// playwright-core needs Node.js 20 or newer.
const NODE_MIN_MAJOR: u32 = 20;
const CHROMIUM: &str = "/usr/bin/chromium";
/// Written into node_modules/ after `npm ci`: a hash of the package-lock.json it installed.
const NPM_STAMP: &str = "node_modules/.lockstep-npm-ci";

pub fn ensure_all(shell: &Shell, browser: bool) -> Result {
    ensure_rust_components(shell)?;
    ensure_wasm_target(shell)?;
    ensure_trunk(shell)?;
    ensure_wasm_bindgen(shell)?;
    ensure_node(shell)?;
    ensure_npm_tools(shell)?;
    if browser {
        ensure_chromium(shell)?;
        ensure_japanese_font(shell)?;
    }
    // Trunk.toml says `offline = true` (cargo --offline), so fetch every crate first.
    shell
        .status(shell.cargo().args(["fetch", "--locked"]))
        .map_err(|err| {
            format!("{err}\n  (if Cargo.lock is out of date, run `cargo build` once to update it)")
        })
}

/// What `cargo xtask parity` needs: the wasm32 target and Node.
pub fn ensure_parity(shell: &Shell) -> Result {
    ensure_wasm_target(shell)?;
    ensure_node(shell)
}

fn say(what: &str) {
    println!("set-up: {what}");
}

fn ensure_rust_components(shell: &Shell) -> Result {
    for (component, probe) in [("rustfmt", "fmt"), ("clippy", "clippy")] {
        if shell
            .probe(shell.cargo().args([probe, "--version"]))
            .is_some()
        {
            say(&format!("rust component {component}: present"));
            continue;
        }
        say(&format!(
            "installing the rust component {component}: `cargo xtask test` runs `cargo {probe}`"
        ));
        shell.status(shell.cmd("rustup").args(["component", "add", component]))?;
    }
    Ok(())
}

fn ensure_wasm_target(shell: &Shell) -> Result {
    let installed = shell.probe(shell.cmd("rustup").args(["target", "list", "--installed"]));
    if installed.is_some_and(|list| list.lines().any(|line| line.trim() == WASM_TARGET)) {
        say(&format!("rust target {WASM_TARGET}: present"));
        return Ok(());
    }
    say(&format!(
        "installing the rust target {WASM_TARGET}: the UI compiles to WebAssembly"
    ));
    shell.status(shell.cmd("rustup").args(["target", "add", WASM_TARGET]))
}

fn ensure_trunk(shell: &Shell) -> Result {
    let found = shell.probe(shell.cmd("trunk").arg("--version"));
    if version_word(found.as_deref()) == Some(TRUNK_VERSION) {
        say(&format!("trunk {TRUNK_VERSION}: present"));
        return Ok(());
    }
    say(&format!(
        "installing trunk {TRUNK_VERSION} (found: {}): it builds the wasm app and serves it; \
         compiling it takes about 8 minutes on 2 cores",
        found.as_deref().unwrap_or("none")
    ));
    let mut cmd = shell.cargo();
    cmd.args(["install", "--locked", "trunk", "--version", TRUNK_VERSION]);
    if found.is_some() {
        cmd.arg("--force");
    }
    shell.status(&mut cmd)
}

fn ensure_wasm_bindgen(shell: &Shell) -> Result {
    let lock = std::fs::read_to_string(shell.root().join("Cargo.lock"))
        .map_err(|err| format!("reading Cargo.lock: {err}"))?;
    let want = locked_version(&lock, "wasm-bindgen")
        .ok_or("Cargo.lock has no wasm-bindgen package: is the UI crate in the workspace?")?;
    let found = shell.probe(shell.cmd("wasm-bindgen").arg("--version"));
    if version_word(found.as_deref()) == Some(want) {
        say(&format!("wasm-bindgen-cli {want}: present"));
        return Ok(());
    }
    say(&format!(
        "installing wasm-bindgen-cli {want} (found: {}): it must match the wasm-bindgen crate \
         in Cargo.lock exactly; takes a few minutes",
        found.as_deref().unwrap_or("none")
    ));
    // No --locked: the CLI's own lockfile names a crate version the registry lacks.
    let mut cmd = shell.cargo();
    cmd.args(["install", "wasm-bindgen-cli", "--version", want]);
    if found.is_some() {
        cmd.arg("--force");
    }
    shell.status(&mut cmd)
}

fn ensure_node(shell: &Shell) -> Result {
    let found = shell.probe(shell.cmd("node").arg("--version"));
    let major = found.as_deref().and_then(|v| {
        v.trim_start_matches('v')
            .split('.')
            .next()?
            .parse::<u32>()
            .ok()
    });
    match major {
        Some(major) if major >= NODE_MIN_MAJOR => {
            say(&format!("node {}: present", found.unwrap_or_default()));
            Ok(())
        }
        _ => Err(format!(
            "Node.js {NODE_MIN_MAJOR} or newer with npm is needed (found: {}); it runs wasm-opt \
             and the browser tests. Install it with your system's package manager.",
            found.as_deref().unwrap_or("none")
        )),
    }
}

fn ensure_npm_tools(shell: &Shell) -> Result {
    let lock = std::fs::read(shell.root().join("package-lock.json"))
        .map_err(|err| format!("reading package-lock.json: {err}"))?;
    let want = format!("{:016x}\n", fnv1a(&lock));
    let stamp = shell.root().join(NPM_STAMP);
    let present = ["node_modules/.bin/wasm-opt", "node_modules/playwright-core"]
        .iter()
        .all(|p| shell.root().join(p).exists());
    if present && std::fs::read_to_string(&stamp).is_ok_and(|s| s == want) {
        say("npm dev tools (binaryen, playwright-core): present");
        return Ok(());
    }
    say(
        "installing npm dev tools from package-lock.json: binaryen (wasm-opt for Trunk's \
         release build; Debian's is too old) and playwright-core (drives Chromium in the \
         browser tests; it downloads no browser)",
    );
    shell.status(
        shell
            .cmd("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]),
    )?;
    std::fs::write(&stamp, want).map_err(|err| format!("writing {NPM_STAMP}: {err}"))
}

fn ensure_chromium(shell: &Shell) -> Result {
    ensure_debian_package(
        shell,
        CHROMIUM,
        &["chromium", "chromium-driver"],
        "the browser tests run in Debian's Chromium",
    )
}

/// A Japanese font for Chromium: without one the Japanese pages' screenshots show
/// empty boxes, and the tests that check text fits its buttons measure those boxes.
const JAPANESE_FONT: &str = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf";

fn ensure_japanese_font(shell: &Shell) -> Result {
    ensure_debian_package(
        shell,
        JAPANESE_FONT,
        &["fonts-ipafont-gothic"],
        "the browser tests draw and measure the Japanese pages with a Japanese font",
    )
}

/// Installs Debian's `packages` with apt-get when `file` is missing (as root), or says
/// which command would (`why`: what needs them).
fn ensure_debian_package(shell: &Shell, file: &str, packages: &[&str], why: &str) -> Result {
    let names = packages.join(" ");
    if Path::new(file).exists() {
        say(&format!("{names}: present ({file})"));
        return Ok(());
    }
    let install = format!("apt-get update && apt-get install -y {names}");
    if shell.probe(shell.cmd("id").arg("-u")).as_deref() != Some("0") {
        return Err(format!(
            "{why}, and {file} is missing; install it as root:\n  sudo sh -c '{install}'"
        ));
    }
    say(&format!("installing {names}: {why}"));
    shell.status(shell.cmd("apt-get").arg("update"))?;
    shell.status(
        shell
            .cmd("apt-get")
            .args(["install", "-y"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
}

/// The second word of `tool 1.2.3`-style output.
fn version_word(output: Option<&str>) -> Option<&str> {
    output?.split_whitespace().nth(1)
}

/// The version of `name` in a Cargo.lock; the first one if several are locked.
pub fn locked_version<'a>(lock: &'a str, name: &str) -> Option<&'a str> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let version = lines.next()?.trim().strip_prefix("version = \"")?;
            return version.strip_suffix('"');
        }
    }
    None
}

/// A stable content hash (std's hasher may change between Rust releases).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_versions_from_cargo_lock() {
        let lock = r#"
[[package]]
name = "wasm-bindgen-macro"
version = "0.1.0"

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
dependencies = []
"#;
        assert_eq!(locked_version(lock, "wasm-bindgen"), Some("0.2.130"));
        assert_eq!(locked_version(lock, "yew"), None);
    }

    #[test]
    fn reads_tool_versions() {
        assert_eq!(version_word(Some("trunk 0.21.14")), Some("0.21.14"));
        assert_eq!(version_word(Some("wasm-bindgen 0.2.130")), Some("0.2.130"));
        assert_eq!(version_word(Some("trunk")), None);
        assert_eq!(version_word(None), None);
    }

    #[test]
    fn fnv1a_is_stable() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
