//! Fuzzing Lockstep's inputs: the SQL parser (both dialects), the lesson loader, and
//! parse-then-simulate with small budgets. Every input is a function of (target, seed,
//! index), generated from a grammar (`gen`) or mutated from the lessons' own text
//! (`mutate`), so a failure found by a long run (`cargo xtask fuzz`) is replayed and
//! minimized from three numbers, and a fixed short pass runs as an ordinary test.
//!
//! No input may panic, hang or use memory without bound: a panic is caught and
//! reported here; the `lockstep-fuzz` binary runs workers as child processes and also
//! catches aborts (stack overflows), hangs and memory blow-ups.

pub mod gen;
pub mod mutate;

use std::collections::BTreeSet;
use std::fmt;

use engine::{Dialect, Scenario, SessionSpec, Simulation};
use gen::Gen;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// What is fuzzed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `sql::parse_script` in both dialects.
    Parse,
    /// `Lesson::parse`, every combination's `apply`, the narrative and error placing.
    Lesson,
    /// A scenario parsed and simulated with a small step budget, its view taken along.
    Simulate,
}

impl Target {
    pub const ALL: [Target; 3] = [Target::Parse, Target::Lesson, Target::Simulate];

    pub fn name(self) -> &'static str {
        match self {
            Target::Parse => "parse",
            Target::Lesson => "lesson",
            Target::Simulate => "simulate",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The real text inputs start from: lesson files and the SQL blocks in them.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    /// (file name, text) of each lesson.
    pub lessons: Vec<(String, String)>,
    /// (dialect, SQL) of each block of each lesson.
    pub sql: Vec<(Dialect, String)>,
}

impl Corpus {
    /// From (file name, text) pairs of lesson files.
    pub fn from_lessons(files: Vec<(String, String)>) -> Corpus {
        let mut sql = Vec::new();
        for (name, text) in &files {
            let dialect = if text.contains("dialect = \"teradata\"") {
                Dialect::Teradata
            } else if text.contains("dialect = \"postgres\"") {
                Dialect::Postgres
            } else {
                Dialect::TSql
            };
            // The scripts as the simulator gets them (toggle markers applied)...
            if let Ok(l) = lesson::Lesson::parse(name, text) {
                if let Ok(a) = l.apply(&l.settings_default()) {
                    sql.push((dialect, a.scenario.setup.clone()));
                    sql.extend(a.scenario.sessions.iter().map(|s| (dialect, s.sql.clone())));
                }
            }
            // ...and the blocks as written, markers and all.
            let mut rest = text.as_str();
            while let Some(start) = rest.find("```sql") {
                let body = &rest[start..];
                let Some(nl) = body.find('\n') else { break };
                let Some(end) = body[nl..].find("\n```") else {
                    break;
                };
                sql.push((dialect, body[nl + 1..nl + end + 1].to_string()));
                rest = &body[nl + end + 4..];
            }
        }
        Corpus {
            lessons: files,
            sql,
        }
    }
}

/// One generated input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Parse { dialect: Dialect, text: String },
    Lesson { file: String, text: String },
    Simulate { scenario: Scenario, seed: u64 },
}

impl Input {
    /// Reads back what [`Input`]'s `Display` wrote (for replaying a saved input).
    pub fn from_text(text: &str) -> Option<Input> {
        let (head, body) = text.split_once('\n').unwrap_or((text, ""));
        let mut words = head.split_whitespace();
        if words.next() != Some("--") {
            return None;
        }
        let kind = words.next()?;
        let arg = words.next().unwrap_or("");
        let dialect = || match arg {
            "Teradata" => Dialect::Teradata,
            "Postgres" => Dialect::Postgres,
            _ => Dialect::TSql,
        };
        match kind {
            "parse" => Some(Input::Parse {
                dialect: dialect(),
                text: body.to_string(),
            }),
            "lesson" => Some(Input::Lesson {
                file: arg.to_string(),
                text: body.to_string(),
            }),
            "simulate" => {
                let seed = head.rsplit(' ').next()?.parse().ok()?;
                let mut scenario = Scenario {
                    dialect: dialect(),
                    ..Scenario::default()
                };
                let mut current: Option<&mut String> = None;
                for line in body.split_inclusive('\n') {
                    if line == "-- setup\n" {
                        current = Some(&mut scenario.setup);
                        continue;
                    }
                    if let Some(rest) = line.strip_prefix("-- session ") {
                        let mut w = rest.split_whitespace();
                        let name = w.next()?.to_string();
                        let start_us = w.nth(1)?.parse().ok()?;
                        scenario.sessions.push(SessionSpec {
                            name,
                            start_us,
                            sql: String::new(),
                        });
                        current = scenario.sessions.last_mut().map(|s| &mut s.sql);
                        continue;
                    }
                    if let Some(c) = current.as_deref_mut() {
                        c.push_str(line);
                    }
                }
                // Display ends each part with a newline of its own.
                for part in std::iter::once(&mut scenario.setup)
                    .chain(scenario.sessions.iter_mut().map(|s| &mut s.sql))
                {
                    if part.ends_with('\n') {
                        part.pop();
                    }
                }
                Some(Input::Simulate { scenario, seed })
            }
            _ => None,
        }
    }
}

impl fmt::Display for Input {
    /// The input as text a person can read and replay.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Parse { dialect, text } => write!(f, "-- parse {dialect:?}\n{text}"),
            Input::Lesson { file, text } => write!(f, "-- lesson {file}\n{text}"),
            Input::Simulate { scenario, seed } => {
                writeln!(f, "-- simulate {:?} seed {seed}", scenario.dialect)?;
                writeln!(f, "-- setup\n{}", scenario.setup)?;
                for s in &scenario.sessions {
                    writeln!(f, "-- session {} at {} µs\n{}", s.name, s.start_us, s.sql)?;
                }
                Ok(())
            }
        }
    }
}

/// The generator for input `index` of `target` under `seed`: independent per index, so
/// any input is made again without the ones before it.
fn generator(target: Target, seed: u64, index: u64) -> Gen {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index.wrapping_mul(4) + target as u64);
    Gen::new(rng)
}

/// Input `index` of `target` under `seed`.
pub fn input(corpus: &Corpus, target: Target, seed: u64, index: u64) -> Input {
    let mut g = generator(target, seed, index);
    let dialect = |g: &mut Gen| {
        if g.chance(25) {
            Dialect::Teradata
        } else {
            Dialect::TSql
        }
    };
    match target {
        Target::Parse => {
            let d = dialect(&mut g);
            let text = if g.chance(50) || corpus.sql.is_empty() {
                match d {
                    Dialect::Teradata => g.teradata_script(),
                    // The generator writes T-SQL; PostgreSQL inputs come from the corpus.
                    Dialect::TSql | Dialect::Postgres => g.script(),
                }
            } else {
                let (_, base) = &corpus.sql[g.below(corpus.sql.len())];
                mutate::mutate(&mut g, base)
            };
            Input::Parse { dialect: d, text }
        }
        Target::Lesson => {
            let (file, text) = if corpus.lessons.is_empty() {
                ("lessons/x.md".to_string(), String::new())
            } else {
                corpus.lessons[g.below(corpus.lessons.len())].clone()
            };
            Input::Lesson {
                text: mutate::mutate(&mut g, &text),
                file,
            }
        }
        Target::Simulate => {
            g.strict = true;
            let d = dialect(&mut g);
            let setup = match d {
                Dialect::Teradata => "CREATE TABLE q, QUEUE (qits TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), id INTEGER) PRIMARY INDEX (id);\nINSERT INTO q (id) VALUES (1);\n".into(),
                Dialect::TSql | Dialect::Postgres => g.schema(),
            };
            let script = |g: &mut Gen| match d {
                Dialect::Teradata => g.teradata_script(),
                Dialect::TSql | Dialect::Postgres => g.script(),
            };
            let sessions = (0..1 + g.below(3))
                .map(|k| {
                    let sql = if g.chance(15) && !corpus.sql.is_empty() {
                        let same: Vec<&String> = corpus
                            .sql
                            .iter()
                            .filter(|(dd, _)| *dd == d)
                            .map(|(_, s)| s)
                            .collect();
                        let base = same[g.below(same.len())].clone();
                        mutate::mutate(&mut g, &base)
                    } else {
                        script(&mut g)
                    };
                    SessionSpec {
                        name: ["A", "B", "C"][k].into(),
                        start_us: g.below(3) as u64 * 1000,
                        sql,
                    }
                })
                .collect();
            Input::Simulate {
                scenario: Scenario {
                    dialect: d,
                    setup,
                    sessions,
                    setup_blocks: Vec::new(),
                    limits: Default::default(),
                },
                seed: g.below(1000) as u64,
            }
        }
    }
}

/// Steps a simulated input may take, and statements per session (setup included):
/// enough for the scripts' loops to meet a lock, few enough that a million inputs take
/// minutes.
pub const SIMULATE_STEPS: u64 = 3_000;

/// Runs one input and returns a short signature of what came out (the error's kind, a
/// parse error's first words), which tells a new behaviour from a known one. Panics
/// propagate: the caller decides how to catch them.
pub fn run(input: &Input) -> String {
    match input {
        Input::Parse { dialect, text } => {
            let parser = match dialect {
                Dialect::Teradata => sql::Dialect::Teradata,
                Dialect::TSql => sql::Dialect::TSql,
                Dialect::Postgres => sql::Dialect::Postgres,
            };
            match sql::parse_script(text, parser) {
                Ok(script) => format!("ok {}", script.batches.len().min(3)),
                Err(e) => {
                    let (line, col) = sql::line_col(text, e.span.start);
                    assert!(line >= 1 && col >= 1, "error position {line}:{col}");
                    signature(&e.message)
                }
            }
        }
        Input::Lesson { file, text } => match lesson::Lesson::parse(file, text) {
            Err(errors) => errors
                .first()
                .map_or("err".into(), |e| signature(&e.message)),
            Ok(l) => {
                let _ = lesson::narrative_html(&l);
                let mut applied = 0;
                for s in l.combinations(8).settings {
                    if let Ok(a) = l.apply(&s) {
                        applied += 1;
                        for b in &a.blocks {
                            let block = b.engine_block.unwrap_or(engine::Block::Setup);
                            let _ = a.locate(block, 1, 1, "m");
                            let _ = a.locate(block, 9999, 9999, "m");
                        }
                    }
                }
                format!("lesson ok {}", applied.min(2))
            }
        },
        Input::Simulate { scenario, seed } => {
            let limits = engine::Limits {
                steps: SIMULATE_STEPS,
                statements: SIMULATE_STEPS,
            };
            let mut sim = match Simulation::with_limits(scenario, *seed, limits) {
                Ok(sim) => sim,
                Err(e) => return signature(&e.message),
            };
            let mut steps = 0u64;
            while sim.step() {
                steps += 1;
                if steps % 64 == 0 {
                    let _ = sim.view(20);
                    let _ = sim.fingerprint();
                }
            }
            let _ = sim.view(20);
            let _ = sim.query("SELECT COUNT(*) FROM task");
            let errors: BTreeSet<u32> = sim
                .outcome()
                .sessions
                .iter()
                .flat_map(|s| s.errors.iter().map(|e| e.number))
                .collect();
            format!("sim errors {errors:?}")
        }
    }
}

/// The first words of a message, numbers and quoted names dropped.
fn signature(message: &str) -> String {
    message
        .split_whitespace()
        .filter(|w| !w.contains('\'') && !w.chars().any(|c| c.is_ascii_digit()))
        .take(6)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Counts of one pass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    pub inputs: u64,
    /// Distinct signatures seen: how many different behaviours the inputs reached.
    pub behaviours: usize,
    /// (index, panic message) of each input that panicked.
    pub panics: Vec<(u64, String)>,
}

/// Runs inputs `from..from + count` of `target` in this process, catching panics.
pub fn pass(corpus: &Corpus, target: Target, seed: u64, from: u64, count: u64) -> Pass {
    let mut seen = BTreeSet::new();
    let mut out = Pass::default();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for index in from..from + count {
        let inp = input(corpus, target, seed, index);
        match std::panic::catch_unwind(|| run(&inp)) {
            Ok(sig) => {
                seen.insert(sig);
            }
            Err(p) => out.panics.push((index, panic_text(&p))),
        }
        out.inputs += 1;
    }
    std::panic::set_hook(hook);
    out.behaviours = seen.len();
    out
}

/// A caught panic's message.
pub fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic".into())
}
