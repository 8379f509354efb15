//! `lockstep-fidelity --bin DIR [--out FILE] [--filter TEXT] PATH...`: runs every
//! `pg-*.md` lesson under PATH in each setting on a throwaway cluster made with DIR's
//! `initdb` and `pg_ctl`, and on the simulator, prints the table of figures and writes
//! the report. Exit codes: 0 every figure agrees, 1 one differs, 2 it could not run.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use lesson::{CheckKind, Lesson};
use lockstep_fidelity::cluster::Cluster;
use lockstep_fidelity::compare::judge_real;
use lockstep_fidelity::{compare, plan, real, report, Entry, Simulated};

const USAGE: &str = "\
usage: lockstep-fidelity [--bin DIR] [--out FILE] [--filter TEXT] [--real-only] PATH...
  --bin DIR      PostgreSQL's binaries (default: the newest /usr/lib/postgresql/N/bin)
  --out FILE     the JSON report (default: target/fidelity/report.json)
  --filter TEXT  only lesson files whose path contains TEXT
  --real-only    run on the server only and judge by the lesson's checks (a draft the
                 simulator cannot run yet)";

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("fidelity: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<bool, String> {
    let mut args = std::env::args().skip(1);
    let (mut bin, mut out, mut filter, mut paths) = (None, None, None, Vec::new());
    let mut real_only = false;
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--bin" => bin = Some(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--filter" => filter = Some(value()?),
            "--real-only" => real_only = true,
            _ if arg.starts_with('-') => return Err(format!("unknown option {arg}\n{USAGE}")),
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    let bin = bin
        .or_else(lockstep_fidelity::cluster::find_binaries)
        .ok_or("no PostgreSQL binaries (initdb, pg_ctl) found")?;
    let mut files = Vec::new();
    for path in &paths {
        collect(path, &mut files)?;
    }
    files.retain(|f| {
        filter
            .as_ref()
            .is_none_or(|t| f.to_string_lossy().contains(t.as_str()))
    });
    files.sort();
    if files.is_empty() {
        return Err(format!("no pg-*.md lesson under {paths:?}\n{USAGE}"));
    }
    let cluster = Cluster::start(&bin)?;
    println!("fidelity: PostgreSQL from {}", bin.display());
    let mut entries = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let name = file.to_string_lossy();
        let lesson = Lesson::parse(&name, &text).map_err(|errors| {
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        for settings in &lesson.all_combinations().settings {
            entries.extend(one_setting(&cluster, &lesson, settings, real_only)?);
        }
    }
    drop(cluster);
    print!("{}", report::table(&entries));
    let json = report::json(&entries);
    let out = out.unwrap_or_else(|| PathBuf::from("target/fidelity/report.json"));
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let pretty = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
    std::fs::write(&out, pretty + "\n").map_err(|e| format!("{}: {e}", out.display()))?;
    let failed = entries.iter().filter(|e| !e.passed).count();
    println!(
        "fidelity: {} figures agree, {failed} differ; report in {}",
        entries.len() - failed,
        out.display()
    );
    Ok(failed == 0)
}

fn one_setting(
    cluster: &Cluster,
    lesson: &Lesson,
    settings: &lesson::Settings,
    real_only: bool,
) -> Result<Vec<Entry>, String> {
    let (plan, applied) = plan(lesson, settings)?;
    println!("fidelity: {} [{}]", plan.lesson, plan.settings);
    let queries: Vec<String> = applied
        .checks
        .iter()
        .filter_map(|c| match &c.kind {
            CheckKind::Query { sql, .. } => Some(sql.clone()),
            _ => None,
        })
        .collect();
    let real = real::run(cluster, &plan, &queries)?;
    if real_only {
        return Ok(judge_real(
            &plan.lesson,
            &plan.settings,
            &applied.checks,
            &real,
        ));
    }
    let mut sim = lesson::run(&applied, lesson.seed).map_err(|e| e.to_string())?;
    let simulation = &mut sim.simulation;
    let mut query = |sql: &str| simulation.query(sql).map_err(|e| e.message);
    let simulated = Simulated {
        outcome: &sim.outcome,
        query: &mut query,
    };
    Ok(compare(
        &plan.lesson,
        &plan.settings,
        &applied.checks,
        &real,
        simulated,
    ))
}

/// `pg-*.md` files: `path` itself, or those in the directory (not recursing).
fn collect(path: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    if path.is_dir() {
        let dir = std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for entry in dir.flatten() {
            let p = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("pg-") && name.ends_with(".md") {
                files.push(p);
            }
        }
        Ok(())
    } else if path.is_file() {
        files.push(path.to_path_buf());
        Ok(())
    } else {
        Err(format!("{}: no such file or directory", path.display()))
    }
}
