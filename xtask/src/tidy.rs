//! Checks of the architecture invariants in ARCHITECTURE.md that a compiler cannot
//! see: the engine depends on nothing web-specific and reads no clock or OS entropy
//! (time and randomness are inputs, so a seed replays a run exactly); no engine file
//! imports another in a circle; dialect-specific code lives only in `dialect/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::shell::{Result, Shell};

/// Crates that would tie the engine to the browser or to OS entropy or clocks.
const ENGINE_FORBIDDEN_DEPS: &[&str] = &[
    "wasm-bindgen",
    "web-sys",
    "js-sys",
    "gloo",
    "yew",
    "getrandom",
    "instant",
    "web-time",
    "chrono",
];

/// Source text that reads a clock or OS entropy.
const ENGINE_FORBIDDEN_CALLS: &[&str] = &[
    "Instant::now",
    "SystemTime",
    "thread_rng",
    "rand::rng(",
    "rand::random",
    "OsRng",
    "from_entropy",
    "from_os_rng",
    "getrandom",
    // std's HashMap and HashSet seed their hashers from the OS (`RandomState`): the
    // engine uses `rustc_hash`'s unseeded ones.
    "RandomState",
    "collections::HashMap",
    "collections::HashSet",
    "HashMap::new",
    "HashSet::new",
];

pub fn check_engine(shell: &Shell) -> Result {
    let tree = shell.read(shell.cargo().args([
        "tree",
        "-p",
        "lockstep-engine",
        "--edges",
        "normal",
        "--target",
        "all",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]))?;
    let mut problems = forbidden_deps(&tree);
    let src = shell.root().join("crates/engine/src");
    scan_dir(&src, &mut problems)?;
    let files = engine_files(&src)?;
    problems.extend(import_cycles(&files));
    problems.extend(dialect_outside(&files));
    if problems.is_empty() {
        println!(
            "engine: no web dependencies, no clock or OS entropy reads, no import cycles \
             among its {} files, dialect code only in dialect/",
            files.len()
        );
        Ok(())
    } else {
        Err(format!(
            "engine invariants broken (see ARCHITECTURE.md):\n  {}",
            problems.join("\n  ")
        ))
    }
}

fn forbidden_deps(tree: &str) -> Vec<String> {
    let mut found: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| {
            ENGINE_FORBIDDEN_DEPS
                .iter()
                .any(|bad| name == bad || name.starts_with(&format!("{bad}-")))
        })
        .map(|name| format!("depends on {name}"))
        .collect();
    found.sort();
    found.dedup();
    found
}

fn scan_dir(dir: &Path, problems: &mut Vec<String>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|err| err.to_string())?.path();
        if path.is_dir() {
            scan_dir(&path, problems)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = std::fs::read_to_string(&path)
                .map_err(|err| format!("{}: {err}", path.display()))?;
            for (line, call) in forbidden_calls(&text) {
                problems.push(format!("{}:{line}: uses {call}", path.display()));
            }
        }
    }
    Ok(())
}

/// (line number, forbidden text) for each code line that uses one; comments are
/// skipped so docs may name what they forbid.
fn forbidden_calls(text: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        for call in ENGINE_FORBIDDEN_CALLS {
            if code.contains(call) {
                found.push((index + 1, *call));
            }
        }
    }
    found
}

/// Words that name one dialect; code outside `dialect/` must not contain them.
const DIALECT_WORDS: &[&str] = &["teradata", "bteq", "postgres"];
/// Files outside `dialect/` that may name a dialect: the trace's and the view's shared
/// vocabulary (events such as a consume's delayed state, documented per dialect).
const DIALECT_VOCABULARY: &[&str] = &["event.rs", "view.rs"];

/// An engine source file: its path under `src/` (with `/`), module path and text.
struct SourceFile {
    rel: String,
    module: Vec<String>,
    text: String,
}

fn engine_files(src: &Path) -> Result<Vec<SourceFile>> {
    let mut paths = Vec::new();
    collect_rs(src, &mut paths)?;
    let mut files = Vec::new();
    for path in paths {
        let rel = path
            .strip_prefix(src)
            .map_err(|err| err.to_string())?
            .to_string_lossy()
            .replace('\\', "/");
        let text =
            std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        files.push(SourceFile {
            module: module_of(&rel),
            rel,
            text,
        });
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(files)
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|err| err.to_string())?.path();
        if path.is_dir() {
            collect_rs(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// `lib.rs` → [], `a.rs` → [a], `a/mod.rs` → [a], `a/b.rs` → [a, b].
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code of a file without its comment lines and trailing comments, so docs may
/// link anywhere, and without its unit tests (from `#[cfg(test)]` on: a test module's
/// `super` is the file itself).
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .take_while(|line| !line.trim_start().starts_with("#[cfg(test)]"))
        .map(|line| line.split("//").next().unwrap_or_default())
        .filter(|code| !code.trim().is_empty())
}

/// The module paths a file refers to: `crate::a::b::Item`, `super::x`, and in a module
/// with children, `child::Item`. A `use crate::{...}` group is split into its paths.
fn referenced_paths(file: &SourceFile, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for code in code_lines(&file.text) {
        let bytes = code.as_bytes();
        let mut k = 0;
        while k < code.len() {
            let rest = &code[k..];
            let at_word = k == 0
                || !(bytes[k - 1].is_ascii_alphanumeric()
                    || bytes[k - 1] == b'_'
                    || bytes[k - 1] == b':');
            let start = if !at_word {
                None
            } else if let Some(r) = rest.strip_prefix("crate::") {
                Some((Vec::new(), r))
            } else if let Some(r) = rest.strip_prefix("super::") {
                let mut parent = file.module.clone();
                parent.pop();
                Some((parent, r))
            } else {
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if children.contains(&word) && rest[word.len()..].starts_with("::") {
                    let mut here = file.module.clone();
                    here.push(word.clone());
                    Some((here, &rest[word.len() + 2..]))
                } else {
                    None
                }
            };
            let Some((base, tail)) = start else {
                k += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            };
            let consumed = code.len() - tail.len();
            if let Some(group) = tail.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or_default();
                for part in inner.split(',') {
                    found.push(path_segments(&base, part.trim()));
                }
            } else {
                found.push(path_segments(&base, tail));
            }
            k = consumed;
        }
    }
    found
}

fn path_segments(base: &[String], tail: &str) -> Vec<String> {
    let mut path = base.to_vec();
    for seg in tail.split("::") {
        let word: String = seg
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if word.is_empty() {
            break;
        }
        let whole = word.len() == seg.len();
        path.push(word);
        if !whole {
            break;
        }
    }
    path
}

/// Each cycle among the engine's files, as `a.rs → b.rs → a.rs`. A reference resolves to
/// the file of the longest module prefix of its path; `lib.rs` (declarations and
/// re-exports) is no node, so code must name items by their module path.
fn import_cycles(files: &[SourceFile]) -> Vec<String> {
    let by_module: BTreeMap<&[String], usize> = files
        .iter()
        .enumerate()
        .map(|(k, f)| (f.module.as_slice(), k))
        .collect();
    let mut problems = Vec::new();
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); files.len()];
    for (k, f) in files.iter().enumerate() {
        if f.module.is_empty() {
            continue;
        }
        let children: BTreeSet<String> = files
            .iter()
            .filter(|c| c.module.len() == f.module.len() + 1 && c.module.starts_with(&f.module))
            .filter(|_| f.rel.ends_with("mod.rs"))
            .filter_map(|c| c.module.last().cloned())
            .collect();
        for path in referenced_paths(f, &children) {
            let target = (0..=path.len())
                .rev()
                .find_map(|n| by_module.get(&path[..n]).copied());
            match target {
                Some(t) if files[t].module.is_empty() => problems.push(format!(
                    "{}: names `crate::{}` through the crate root; use its module path",
                    f.rel,
                    path.join("::")
                )),
                Some(t) if t != k => {
                    edges[k].insert(t);
                }
                _ => {}
            }
        }
    }
    // Strongly connected components (Tarjan): each with more than one file is a cycle.
    let mut tarjan = Tarjan {
        edges: &edges,
        index: vec![usize::MAX; files.len()],
        low: vec![0; files.len()],
        on_stack: vec![false; files.len()],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for v in 0..files.len() {
        if tarjan.index[v] == usize::MAX {
            tarjan.visit(v);
        }
    }
    for comp in tarjan.components.into_iter().filter(|c| c.len() > 1) {
        let members: BTreeSet<usize> = comp.iter().copied().collect();
        // One cycle through the component, for the message.
        let first = *members.iter().next().unwrap_or(&0);
        let mut path = vec![first];
        let mut seen = BTreeSet::from([first]);
        let mut at = first;
        while let Some(&n) = edges[at].iter().find(|n| members.contains(n)) {
            path.push(n);
            if !seen.insert(n) {
                break;
            }
            at = n;
        }
        let names: Vec<&str> = path.iter().map(|&v| files[v].rel.as_str()).collect();
        problems.push(format!("import cycle: {}", names.join(" → ")));
    }
    problems
}

struct Tarjan<'a> {
    edges: &'a [BTreeSet<usize>],
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn visit(&mut self, v: usize) {
        self.index[v] = self.next;
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for &w in &self.edges[v] {
            if self.index[w] == usize::MAX {
                self.visit(w);
                self.low[v] = self.low[v].min(self.low[w]);
            } else if self.on_stack[w] {
                self.low[v] = self.low[v].min(self.index[w]);
            }
        }
        if self.low[v] == self.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            self.components.push(comp);
        }
    }
}

/// Code outside `dialect/` (and the shared vocabulary files) that names a dialect.
fn dialect_outside(files: &[SourceFile]) -> Vec<String> {
    let mut problems = Vec::new();
    for f in files {
        if f.rel.starts_with("dialect/") || DIALECT_VOCABULARY.contains(&f.rel.as_str()) {
            continue;
        }
        for (n, line) in f.text.lines().enumerate() {
            let lower = line.to_ascii_lowercase();
            if let Some(word) = DIALECT_WORDS.iter().find(|w| lower.contains(*w)) {
                problems.push(format!(
                    "{}:{}: names the dialect `{word}` outside dialect/",
                    f.rel,
                    n + 1
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_forbidden_deps() {
        let tree = "lockstep-engine v0.0.0 (/x)\nbitflags v2.1.0\ngetrandom v0.3.1\nweb-sys v0.3.1\nwebpki v1\n";
        assert_eq!(
            forbidden_deps(tree),
            ["depends on getrandom", "depends on web-sys"]
        );
    }

    #[test]
    fn finds_clock_reads_outside_comments() {
        let src = "//! No Instant::now() here.\nlet t = std::time::Instant::now(); // bad\nlet x = 1; // SystemTime in a comment\n";
        assert_eq!(forbidden_calls(src), [(2, "Instant::now")]);
        let src = "type Rows = std::collections::HashMap<u32, u32>;\nlet m: FxHashMap<u32, u32> = FxHashMap::default();\n";
        assert_eq!(forbidden_calls(src), [(1, "collections::HashMap")]);
    }

    fn file(rel: &str, text: &str) -> SourceFile {
        SourceFile {
            rel: rel.into(),
            module: module_of(rel),
            text: text.into(),
        }
    }

    #[test]
    fn finds_import_cycles_through_modules_and_groups() {
        let files = [
            file("lib.rs", "mod a;\nmod b;\nmod c;\npub use a::A;\n"),
            file("a.rs", "use crate::b::B;\n"),
            file("b/mod.rs", "mod x;\nuse x::X;\n"),
            file("b/x.rs", "use crate::{c::C, v};\n"),
            file("v.rs", ""),
            file(
                "c.rs",
                "// crate::b in a comment is no import\nfn f() -> crate::a::A { todo!() }\n\
                 #[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
            ),
        ];
        assert_eq!(
            import_cycles(&files),
            ["import cycle: a.rs → b/mod.rs → b/x.rs → c.rs → a.rs"]
        );
        let acyclic = [
            file("a.rs", "use super::b;\n"),
            file("b.rs", "use crate::c::C;\n"),
            file("c.rs", "// use crate::a;\n"),
        ];
        assert!(import_cycles(&acyclic).is_empty());
    }

    #[test]
    fn super_in_a_child_is_its_parent_module() {
        let files = [
            file(
                "e/mod.rs",
                "mod run;\npub(crate) struct E;\nfn f() { run::g() }\n",
            ),
            file("e/run.rs", "use super::E;\npub fn g() {}\n"),
        ];
        assert_eq!(
            import_cycles(&files),
            ["import cycle: e/mod.rs → e/run.rs → e/mod.rs"]
        );
    }

    #[test]
    fn root_paths_are_refused() {
        let files = [
            file("lib.rs", "pub use a::A;\n"),
            file("a.rs", "use crate::Trace;\n"),
        ];
        assert_eq!(
            import_cycles(&files),
            ["a.rs: names `crate::Trace` through the crate root; use its module path"]
        );
    }

    #[test]
    fn dialect_names_stay_in_dialect_modules() {
        let files = [
            file("dialect/teradata/mod.rs", "// Teradata\n"),
            file("event.rs", "/// Teradata: a consume waits\n"),
            file("exec/run.rs", "let x = 1;\n// BTEQ's repeat\n"),
        ];
        assert_eq!(
            dialect_outside(&files),
            ["exec/run.rs:2: names the dialect `bteq` outside dialect/"]
        );
    }
}
