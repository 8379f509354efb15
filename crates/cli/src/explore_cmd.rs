//! `lockstep explore`: search a lesson's interleavings for a state that breaks one of
//! its properties.

use std::fmt::Write as _;

use explore::{Options, Report, Search, Verdict};
use lesson::{find_property, Lesson, Settings};
use serde::Serialize;

use crate::args::ExploreArgs;
use crate::json::SettingsJson;

pub fn command(args: &ExploreArgs) -> u8 {
    crate::finish(explore_lesson(args))
}

/// The text to print and whether the property holds, or the messages of bad input.
fn explore_lesson(args: &ExploreArgs) -> Result<(String, bool), Vec<String>> {
    let (lesson, settings) = crate::run_cmd::lesson_and_settings(&args.lesson, &args.set)?;
    let seed = args.seed.unwrap_or(lesson.seed);
    let applied = lesson.apply(&settings).map_err(|e| vec![e.to_string()])?;
    let wanted = match &args.property {
        Some(p) => p.clone(),
        None => applied
            .properties
            .first()
            .map_or_else(|| "no-errors".to_string(), |p| p.name.clone()),
    };
    let property = find_property(&applied.properties, &wanted).ok_or_else(|| {
        let mut names: Vec<&str> = applied.properties.iter().map(|p| p.name.as_str()).collect();
        for b in lesson::Builtin::ALL {
            if !names.contains(&b.name()) {
                names.push(b.name());
            }
        }
        vec![format!(
            "error: --property: lesson `{}` has no property `{wanted}` with these settings (properties: {})",
            lesson.id,
            names.join(", ")
        )]
    })?;
    let (sleep_sets, prune_visited) = match args.reduction.as_str() {
        "none" => (false, false),
        "visited" => (false, true),
        _ => (true, true),
    };
    let options = Options {
        max_steps: args.max_steps,
        max_states: args.max_states,
        sleep_sets,
        prune_visited,
        walks: args.walks,
        walk_seed: seed,
        ..Options::default()
    };
    let report = Search::new(&applied, seed, property, options)
        .and_then(Search::run)
        .map_err(|e| vec![e.to_string()])?;
    let replay = replay_command(args, &settings, seed, &lesson, &report);
    let output = if args.json {
        let json = ExploreJson::new(&lesson.id, seed, &settings, &args.reduction, &report);
        let mut s = serde_json::to_string_pretty(&json).unwrap_or_default();
        s.push('\n');
        s
    } else {
        text_report(&lesson, &settings, seed, &report, replay.as_deref())
    };
    Ok((output, report.holds() && !report.unchecked()))
}

/// The `lockstep run` line that replays the counterexample.
fn replay_command(
    args: &ExploreArgs,
    settings: &Settings,
    seed: u64,
    lesson: &Lesson,
    report: &Report,
) -> Option<String> {
    let c = report.counterexample()?;
    let mut line = format!("lockstep run {}", args.lesson.display());
    for (name, value) in settings.iter() {
        if lesson
            .toggles
            .iter()
            .any(|t| t.name == name && t.default_value() != value)
        {
            let _ = write!(line, " --set {name}={value}");
        }
    }
    if seed != lesson.seed {
        let _ = write!(line, " --seed {seed}");
    }
    let _ = write!(line, " --schedule {}", c.schedule);
    Some(line)
}

fn text_report(
    lesson: &Lesson,
    settings: &Settings,
    seed: u64,
    report: &Report,
    replay: Option<&str>,
) -> String {
    let mut out = crate::run_cmd::heading(lesson, seed, settings);
    let p = &report.property;
    let _ = writeln!(out, "property {}: {}", p.name, p.label);
    let f = &report.progress;
    let o = &report.options;
    match &report.verdict {
        Verdict::Violated(c) => {
            let detail = c.detail.as_ref().map(ToString::to_string);
            let _ = writeln!(out, "violated: {}", detail.unwrap_or_default());
            let _ = writeln!(
                out,
                "counterexample: {} steps, {} context switch{}, schedule {}",
                c.steps.len(),
                c.switches,
                if c.switches == 1 { "" } else { "es" },
                c.schedule
            );
            for (k, step) in c.steps.iter().enumerate() {
                let _ = writeln!(out, "  {:>3}  {step}", k + 1);
            }
            if let Some(x) = &c.conflict {
                let _ = writeln!(
                    out,
                    "why: {} (steps {} and {})",
                    x.summary(),
                    x.read + 1,
                    x.write + 1
                );
            }
            if let Some(replay) = replay {
                let _ = writeln!(out, "replay: {replay}");
            }
        }
        Verdict::Holds if report.unchecked() => {
            let _ = writeln!(
                out,
                "unchecked: no interleaving explored reached the end of the run, where the \
                 property is checked (each was cut at --max-steps {}; raise it)",
                o.max_steps
            );
        }
        Verdict::Holds if f.exhaustive => {
            let _ = writeln!(
                out,
                "holds for every interleaving up to {} steps (exhaustive)",
                o.max_steps
            );
        }
        Verdict::Holds => {
            let why = if f.walks > 0 {
                format!(
                    "the state budget of {} ran out, then {} random walks",
                    o.max_states, f.walks
                )
            } else {
                format!("interleavings longer than {} steps were cut", o.max_steps)
            };
            let _ = writeln!(
                out,
                "holds in every interleaving explored, not exhaustive: {why}"
            );
        }
    }
    // Walks run to the end of the run, so the longest may pass --max-steps: say why,
    // or the bound looks ignored.
    let past = if f.max_depth > o.max_steps && f.walks > 0 {
        format!(
            " (a random walk: walks are not cut at --max-steps {})",
            o.max_steps
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "searched {} states, {} steps, {} schedules, the longest {} step{}{past}",
        f.states,
        f.transitions,
        f.schedules,
        f.max_depth,
        if f.max_depth == 1 { "" } else { "s" }
    );
    out
}

/// The `explore --json` object. Field names and shapes are a contract (see `--help`).
#[derive(Serialize)]
struct ExploreJson<'a> {
    lesson: &'a str,
    seed: u64,
    settings: SettingsJson<'a>,
    property: &'a str,
    label: &'a str,
    verdict: &'static str,
    exhaustive: bool,
    states: u64,
    transitions: u64,
    schedules: u64,
    max_depth: usize,
    walks: u64,
    bounds: BoundsJson,
    reduction: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    counterexample: Option<CounterexampleJson>,
}

#[derive(Serialize)]
struct BoundsJson {
    max_steps: usize,
    max_states: usize,
}

#[derive(Serialize)]
struct CounterexampleJson {
    schedule: String,
    steps: Vec<String>,
    switches: usize,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    conflict: Option<ConflictJson>,
}

#[derive(Serialize)]
struct ConflictJson {
    read: usize,
    write: usize,
    summary: String,
}

impl<'a> ExploreJson<'a> {
    fn new(
        lesson: &'a str,
        seed: u64,
        settings: &'a Settings,
        reduction: &'a str,
        report: &'a Report,
    ) -> ExploreJson<'a> {
        let f = &report.progress;
        ExploreJson {
            lesson,
            seed,
            settings: SettingsJson(settings),
            property: &report.property.name,
            label: &report.property.label,
            verdict: if report.unchecked() {
                "unchecked"
            } else if report.holds() {
                "holds"
            } else {
                "violated"
            },
            exhaustive: f.exhaustive,
            states: f.states,
            transitions: f.transitions,
            schedules: f.schedules,
            max_depth: f.max_depth,
            walks: f.walks,
            bounds: BoundsJson {
                max_steps: report.options.max_steps,
                max_states: report.options.max_states,
            },
            reduction,
            counterexample: report.counterexample().map(|c| CounterexampleJson {
                schedule: c.schedule.to_string(),
                steps: c.steps.iter().map(ToString::to_string).collect(),
                switches: c.switches,
                detail: c
                    .detail
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                conflict: c.conflict.as_ref().map(|x| ConflictJson {
                    read: x.read,
                    write: x.write,
                    summary: x.summary(),
                }),
            }),
        }
    }
}
