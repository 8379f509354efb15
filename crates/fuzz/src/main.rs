//! `lockstep-fuzz`: long fuzzing runs. The parent hands chunks of input indexes to
//! worker processes (one per core), watches them for aborts (a stack overflow kills a
//! process), hangs (no progress for `--hang-secs`) and memory blow-ups (resident size
//! over `--max-mb`), narrows a failure down to its input, minimizes it and saves it.
//!
//! ```text
//! lockstep-fuzz run [--time SECS] [--workers N] [--seed N] [--lessons DIR] [--out DIR]
//!                   [--hang-secs N] [--max-mb N]
//! lockstep-fuzz show TARGET SEED INDEX [--lessons DIR]    print one input
//! lockstep-fuzz replay FILE                             run a saved input
//! lockstep-fuzz stats TARGET COUNT [--lessons DIR]      the behaviours inputs reach
//! ```

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use lockstep_fuzz::{input, panic_text, run, Corpus, Input, Target};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|k| args.get(k + 1).cloned())
    };
    let lessons = PathBuf::from(flag("--lessons").unwrap_or_else(|| "lessons".into()));
    match args.first().map(String::as_str) {
        Some("run") => {
            let num = |name: &str, default: u64| {
                flag(name).and_then(|v| v.parse().ok()).unwrap_or(default)
            };
            let workers = num(
                "--workers",
                std::thread::available_parallelism().map_or(2, |n| n.get() as u64),
            );
            let settings = Settings {
                time: Duration::from_secs(num("--time", 60)),
                workers: workers.max(1) as usize,
                seed: num("--seed", 1),
                hang: Duration::from_secs(num("--hang-secs", 10)),
                max_kb: num("--max-mb", 2048) * 1024,
                lessons,
                out: PathBuf::from(flag("--out").unwrap_or_else(|| "target/fuzz-findings".into())),
            };
            fuzz(&settings)
        }
        Some("worker") => worker(&args[1..], &lessons),
        Some("show") => {
            let (Some(target), Some(seed), Some(index)) = (
                args.get(1).and_then(|t| Target::from_name(t)),
                args.get(2).and_then(|s| s.parse().ok()),
                args.get(3).and_then(|s| s.parse().ok()),
            ) else {
                eprintln!("usage: lockstep-fuzz show TARGET SEED INDEX");
                return ExitCode::from(2);
            };
            print!("{}", input(&corpus(&lessons), target, seed, index));
            ExitCode::SUCCESS
        }
        Some("stats") => {
            let (Some(target), Some(count)) = (
                args.get(1).and_then(|t| Target::from_name(t)),
                args.get(2).and_then(|s| s.parse::<u64>().ok()),
            ) else {
                eprintln!("usage: lockstep-fuzz stats TARGET COUNT");
                return ExitCode::from(2);
            };
            let c = corpus(&lessons);
            let mut seen = std::collections::BTreeMap::new();
            for index in 0..count {
                *seen
                    .entry(run(&input(&c, target, 1, index)))
                    .or_insert(0u64) += 1;
            }
            let mut by_count: Vec<_> = seen.into_iter().collect();
            by_count.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
            for (sig, n) in by_count.iter().take(40) {
                println!("{n:>8}  {sig}");
            }
            println!("{} behaviours in {count} inputs", by_count.len());
            ExitCode::SUCCESS
        }
        Some("replay") => {
            let Some(text) = args.get(1).and_then(|f| std::fs::read_to_string(f).ok()) else {
                eprintln!("usage: lockstep-fuzz replay FILE");
                return ExitCode::from(2);
            };
            match Input::from_text(&text) {
                Some(inp) => {
                    println!("{}", run(&inp));
                    ExitCode::SUCCESS
                }
                None => {
                    eprintln!("lockstep-fuzz: the file is not a saved input");
                    ExitCode::from(2)
                }
            }
        }
        _ => {
            eprintln!("usage: lockstep-fuzz run|show|replay ... (see the source's docs)");
            ExitCode::from(2)
        }
    }
}

fn corpus(lessons: &Path) -> Corpus {
    let mut files = Vec::new();
    if let Ok(entries) = std::fs::read_dir(lessons) {
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "md")
                && path.file_name().is_some_and(|n| n != "README.md")
            {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    files.push((format!("lessons/{}", e.file_name().to_string_lossy()), text));
                }
            }
        }
    }
    files.sort();
    Corpus::from_lessons(files)
}

/// `worker TARGET SEED FROM COUNT FINE`: runs the inputs in order, printing `at K` at
/// least every 100 ms (before every input when FINE is 1), `panic K MESSAGE` for a caught
/// panic, and `done N BEHAVIOURS` at the end.
fn worker(args: &[String], lessons: &Path) -> ExitCode {
    let parse = |k: usize| args.get(k).and_then(|s| s.parse::<u64>().ok());
    let (Some(target), Some(seed), Some(from), Some(count), Some(fine)) = (
        args.first().and_then(|t| Target::from_name(t)),
        parse(1),
        parse(2),
        parse(3),
        parse(4),
    ) else {
        eprintln!("usage: lockstep-fuzz worker TARGET SEED FROM COUNT FINE");
        return ExitCode::from(2);
    };
    let corpus = corpus(lessons);
    std::panic::set_hook(Box::new(|_| {}));
    let mut out = std::io::stdout().lock();
    let mut last = Instant::now();
    let mut behaviours = std::collections::BTreeSet::new();
    for index in from..from + count {
        if fine == 1 || last.elapsed() > Duration::from_millis(100) {
            let _ = writeln!(out, "at {index}");
            let _ = out.flush();
            last = Instant::now();
        }
        let inp = input(&corpus, target, seed, index);
        match std::panic::catch_unwind(|| run(&inp)) {
            Ok(sig) => {
                behaviours.insert(sig);
            }
            Err(p) => {
                let msg = panic_text(&p).replace('\n', " ");
                let _ = writeln!(out, "panic {index} {msg}");
            }
        }
    }
    let _ = writeln!(out, "done {count} {}", behaviours.len());
    ExitCode::SUCCESS
}

struct Settings {
    time: Duration,
    workers: usize,
    seed: u64,
    hang: Duration,
    max_kb: u64,
    lessons: PathBuf,
    out: PathBuf,
}

/// A chunk of inputs a worker runs.
#[derive(Clone, Copy)]
struct Chunk {
    target: Target,
    from: u64,
    count: u64,
}

/// Inputs per chunk: a parse is microseconds, a simulation up to milliseconds.
fn chunk_size(t: Target) -> u64 {
    match t {
        Target::Parse => 50_000,
        Target::Lesson => 2_000,
        Target::Simulate => 5_000,
    }
}

#[derive(Clone)]
enum Failure {
    Panic(String),
    Abort(String),
    Hang,
    Memory(u64),
}

impl Failure {
    fn describe(&self) -> String {
        match self {
            Failure::Panic(m) => format!("panic: {m}"),
            Failure::Abort(m) => format!("abort: {m}"),
            Failure::Hang => "hang: no progress".into(),
            Failure::Memory(kb) => format!("memory: {} MB resident", kb / 1024),
        }
    }
}

/// How a worker run ended.
struct Ended {
    /// The last index it said it started, if any.
    at: Option<u64>,
    done: Option<(u64, usize)>,
    panics: Vec<(u64, String)>,
    failure: Option<Failure>,
}

fn spawn(s: &Settings, seed: u64, c: Chunk, fine: bool) -> std::io::Result<Child> {
    Command::new(std::env::current_exe()?)
        .args([
            "worker",
            c.target.name(),
            &seed.to_string(),
            &c.from.to_string(),
            &c.count.to_string(),
            if fine { "1" } else { "0" },
            "--lessons",
        ])
        .arg(&s.lessons)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
}

fn resident_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Runs one chunk in a worker to its end, watching it.
fn watch(s: &Settings, seed: u64, c: Chunk, fine: bool) -> Ended {
    let mut ended = Ended {
        at: None,
        done: None,
        panics: Vec::new(),
        failure: None,
    };
    let mut child = match spawn(s, seed, c, fine) {
        Ok(child) => child,
        Err(e) => {
            ended.failure = Some(Failure::Abort(format!("could not start a worker: {e}")));
            return ended;
        }
    };
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stderr = child.stderr.take().expect("piped");
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let mut last = Instant::now();
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) => {
                last = Instant::now();
                let mut w = line.splitn(3, ' ');
                match (w.next(), w.next(), w.next()) {
                    (Some("at"), Some(k), _) => ended.at = k.parse().ok(),
                    (Some("panic"), Some(k), m) => {
                        if let Ok(k) = k.parse() {
                            ended.panics.push((k, m.unwrap_or("").to_string()));
                        }
                    }
                    (Some("done"), Some(n), Some(b)) => {
                        ended.done = n.parse().ok().zip(b.parse().ok());
                    }
                    _ => {}
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let kb = resident_kb(child.id());
        if kb > s.max_kb {
            let _ = child.kill();
            ended.failure = Some(Failure::Memory(kb));
            break;
        }
        if last.elapsed() > s.hang {
            let _ = child.kill();
            ended.failure = Some(Failure::Hang);
            break;
        }
    }
    let status = child.wait();
    let err = err_reader.join().unwrap_or_default();
    if ended.failure.is_none() && ended.done.is_none() {
        let why = match status {
            Ok(st) => format!("{st}; {}", err.lines().last().unwrap_or("")),
            Err(e) => e.to_string(),
        };
        ended.failure = Some(Failure::Abort(why));
    }
    ended
}

#[derive(Default)]
struct Progress {
    turn: usize,
    next: [u64; 3],
    tally: [Tally; 3],
    failures: Vec<String>,
}

#[derive(Default)]
struct Tally {
    inputs: u64,
    behaviours: usize,
    chunks: u64,
}

fn fuzz(s: &Settings) -> ExitCode {
    let corpus = corpus(&s.lessons);
    let _ = std::fs::create_dir_all(&s.out);
    println!(
        "fuzzing for {} s with {} workers, seed {}: corpus of {} lessons and {} SQL scripts",
        s.time.as_secs(),
        s.workers,
        s.seed,
        corpus.lessons.len(),
        corpus.sql.len()
    );
    let start = Instant::now();
    // Each worker slot takes the next chunk as soon as its last one ends. Parse gets
    // most chunks (it is cheapest), then simulate, then lesson.
    let plan = [
        Target::Parse,
        Target::Simulate,
        Target::Parse,
        Target::Simulate,
        Target::Lesson,
    ];
    let state = std::sync::Mutex::new(Progress::default());
    std::thread::scope(|scope| {
        for _ in 0..s.workers {
            scope.spawn(|| {
                while start.elapsed() < s.time {
                    let c = {
                        let mut st = state.lock().expect("fuzz state");
                        let target = plan[st.turn % plan.len()];
                        st.turn += 1;
                        let t = target as usize;
                        let c = Chunk {
                            target,
                            from: st.next[t],
                            count: chunk_size(target),
                        };
                        st.next[t] += c.count;
                        c
                    };
                    let ended = watch(s, s.seed, c, false);
                    let mut found = Vec::new();
                    for (k, m) in &ended.panics {
                        found.push(save(s, &corpus, c.target, *k, &Failure::Panic(m.clone())));
                    }
                    let inputs = match (&ended.failure, ended.done) {
                        (None, Some((n, b))) => {
                            let mut st = state.lock().expect("fuzz state");
                            let t = &mut st.tally[c.target as usize];
                            t.behaviours = t.behaviours.max(b);
                            n
                        }
                        (Some(f), _) => {
                            // Find the input: run the rest of the chunk one input at a time.
                            let from = ended.at.unwrap_or(c.from);
                            let rest = Chunk {
                                target: c.target,
                                from,
                                count: c.from + c.count - from,
                            };
                            let again = watch(s, s.seed, rest, true);
                            let culprit = again.at.unwrap_or(from);
                            let failure = again.failure.unwrap_or_else(|| f.clone());
                            found.push(save(s, &corpus, c.target, culprit, &failure));
                            culprit - c.from
                        }
                        (None, None) => 0,
                    };
                    let mut st = state.lock().expect("fuzz state");
                    let t = &mut st.tally[c.target as usize];
                    t.chunks += 1;
                    t.inputs += inputs;
                    st.failures.extend(found);
                }
            });
        }
    });
    let Progress {
        tally, failures, ..
    } = state.into_inner().expect("fuzz state");
    println!("target     inputs   behaviours  chunks");
    for target in Target::ALL {
        let t = &tally[target as usize];
        println!(
            "{:<9} {:>9} {:>10} {:>7}",
            target.name(),
            t.inputs,
            t.behaviours,
            t.chunks
        );
    }
    println!(
        "{} failures in {:.0} s",
        failures.len(),
        start.elapsed().as_secs_f64()
    );
    for f in &failures {
        println!("  {f}");
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Writes a failing input (as generated, and minimized) under the output directory and
/// says where.
fn save(s: &Settings, corpus: &Corpus, target: Target, index: u64, f: &Failure) -> String {
    let inp = input(corpus, target, s.seed, index);
    let base = s
        .out
        .join(format!("{}-{}-{}", target.name(), s.seed, index));
    let _ = std::fs::write(base.with_extension("txt"), inp.to_string());
    let small = minimize(s, &inp);
    let _ = std::fs::write(base.with_extension("min.txt"), small.to_string());
    format!(
        "{target} seed {} input {index}: {} (saved as {}.txt, minimized {} → {} bytes)",
        s.seed,
        f.describe(),
        base.display(),
        inp.to_string().len(),
        small.to_string().len()
    )
}

/// Whether `inp` still fails, run alone in a worker process.
fn still_fails(s: &Settings, inp: &Input) -> bool {
    let file = s.out.join("candidate.txt");
    if std::fs::write(&file, inp.to_string()).is_err() {
        return false;
    }
    let Ok(mut child) = Command::new(match std::env::current_exe() {
        Ok(exe) => exe,
        Err(_) => return false,
    })
    .arg("replay")
    .arg(&file)
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn() else {
        return false;
    };
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return !status.success(),
            Ok(None) if start.elapsed() > s.hang || resident_kb(child.id()) > s.max_kb => {
                let _ = child.kill();
                let _ = child.wait();
                return true;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => return false,
        }
    }
}

/// Drops lines, then characters, while the input still fails (delta debugging, bounded
/// to a few hundred tries).
fn minimize(s: &Settings, inp: &Input) -> Input {
    if !still_fails(s, inp) {
        return inp.clone();
    }
    let mut best = inp.to_string();
    let mut tries = 0;
    for unit in ["\n", ""] {
        let mut size = best.len() / 2;
        while size >= 1 && tries < 400 {
            let pieces: Vec<&str> = if unit.is_empty() {
                let mut v = Vec::new();
                let mut at = 0;
                while at < best.len() {
                    let mut end = (at + size).min(best.len());
                    while !best.is_char_boundary(end) {
                        end += 1;
                    }
                    v.push(&best[at..end]);
                    at = end;
                }
                v
            } else {
                best.split_inclusive('\n').collect()
            };
            let step = if unit.is_empty() {
                1
            } else {
                size.max(1).min(pieces.len())
            };
            let mut improved = false;
            let mut k = 1; // keep the header line
            while k < pieces.len() && tries < 400 {
                let candidate: String = pieces[..k]
                    .iter()
                    .chain(pieces[(k + step).min(pieces.len())..].iter())
                    .copied()
                    .collect();
                tries += 1;
                if let Some(c) = Input::from_text(&candidate) {
                    if still_fails(s, &c) {
                        best = candidate;
                        improved = true;
                        break;
                    }
                }
                k += step;
            }
            if !improved {
                size /= 2;
            }
        }
    }
    Input::from_text(&best).unwrap_or_else(|| inp.clone())
}
