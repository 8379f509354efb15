//! Compare: two runs of one lesson under different toggles, on one time axis
//! (`#/lesson/<id>/compare?left=<toggles>&right=<toggles>`, and the same under
//! `#/embed/<id>/compare` for an iframe). Toggles are written `name:value`, joined by
//! `;` (`left=readpast:on&right=readpast:off`); a toggle not named keeps its default.
//! Pure data and logic here (tested natively): the route, building both runs as one
//! sliced job, and the first point where the runs diverge.

use std::fmt;

use engine::{Event, TraceEntry};
use lesson::{Lesson, Settings};

use crate::player::settings_from;
use crate::problem::LinkProblem;
use crate::run::{BuildProgress, RunBuilder, RunModel};
use crate::sliced::Job;

pub const LEFT_PARAM: &str = "left";
pub const RIGHT_PARAM: &str = "right";

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompareRoute {
    pub id: String,
    /// `(toggle, value)` pairs of each side, unchecked.
    pub left: Vec<(String, String)>,
    pub right: Vec<(String, String)>,
    pub seed: Option<u64>,
    /// The shared playhead, `t=` in ms of virtual time.
    pub time_us: Option<u64>,
    /// Shown in an iframe, without the site's header.
    pub embed: bool,
    /// Parameters that could not be read, worded when the page shows them.
    pub problems: Vec<LinkProblem>,
}

impl CompareRoute {
    pub(crate) fn parse(id: &str, query: &str, embed: bool) -> CompareRoute {
        let mut route = CompareRoute {
            id: id.to_owned(),
            embed,
            ..CompareRoute::default()
        };
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = crate::route::percent_decode(value);
            match name {
                LEFT_PARAM => route.left = pairs(&value, name, &mut route.problems),
                RIGHT_PARAM => route.right = pairs(&value, name, &mut route.problems),
                crate::route::SEED_PARAM => match value.parse() {
                    Ok(seed) => route.seed = Some(seed),
                    Err(_) => route.problems.push(LinkProblem::Seed { value }),
                },
                crate::route::TIME_PARAM => match crate::route::parse_ms(&value) {
                    Some(us) => route.time_us = Some(us),
                    None => route.problems.push(LinkProblem::Time { value }),
                },
                other => route.problems.push(LinkProblem::CompareParam {
                    name: other.to_owned(),
                }),
            }
        }
        route
    }

    /// Both sides' settings (each bad pair skipped, its toggle at the default, and
    /// explained), and the problems of the whole route.
    pub fn settings(&self, lesson: &Lesson) -> (Settings, Settings, Vec<LinkProblem>) {
        let (left, mut problems) = settings_from(lesson, &self.left);
        let (right, more) = settings_from(lesson, &self.right);
        problems.extend(more);
        problems.extend(self.problems.iter().cloned());
        (left, right, problems)
    }

    /// The compare route for two settings of `lesson` (only toggles off their default
    /// are written).
    pub fn of(lesson: &Lesson, left: &Settings, right: &Settings, seed: Option<u64>) -> Self {
        CompareRoute {
            id: lesson.id.clone(),
            left: crate::player::non_default(lesson, left),
            right: crate::player::non_default(lesson, right),
            seed: seed.filter(|s| *s != lesson.seed),
            ..CompareRoute::default()
        }
    }
}

fn pairs(value: &str, side: &str, problems: &mut Vec<LinkProblem>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for item in value.split(';').filter(|s| !s.is_empty()) {
        match item.split_once(':') {
            Some((name, value)) => out.push((name.to_owned(), value.to_owned())),
            None => problems.push(LinkProblem::TogglePair {
                side: side.to_owned(),
                item: item.to_owned(),
            }),
        }
    }
    out
}

impl fmt::Display for CompareRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = if self.embed { "embed" } else { "lesson" };
        let side = |pairs: &[(String, String)]| {
            pairs
                .iter()
                .map(|(n, v)| format!("{n}:{v}"))
                .collect::<Vec<_>>()
                .join(";")
        };
        write!(
            f,
            "/{base}/{}/compare?{LEFT_PARAM}={}&{RIGHT_PARAM}={}",
            self.id,
            side(&self.left),
            side(&self.right)
        )?;
        if let Some(seed) = self.seed {
            write!(f, "&seed={seed}")?;
        }
        if let Some(us) = self.time_us {
            write!(f, "&t={}", crate::present::ms_number(us))?;
        }
        Ok(())
    }
}

/// Both runs, built one after the other in slices.
pub struct PairJob {
    pub left: Option<RunBuilder>,
    pub right: Option<RunBuilder>,
    done_left: Option<RunModel>,
}

impl PairJob {
    pub fn new(left: RunBuilder, right: RunBuilder) -> PairJob {
        PairJob {
            left: Some(left),
            right: Some(right),
            done_left: None,
        }
    }
}

impl Job for PairJob {
    type Output = (RunModel, RunModel);
    type Progress = BuildProgress;
    fn advance(&mut self, steps: usize) -> Option<(RunModel, RunModel)> {
        if self.done_left.is_none() {
            self.done_left = self.left.advance(steps);
            return None;
        }
        let right = self.right.advance(steps)?;
        self.done_left.take().map(|left| (left, right))
    }
    fn progress(&self) -> BuildProgress {
        let left = self.left.progress();
        let right = self.right.progress();
        let done = self.done_left.as_ref().map_or(0, RunModel::events);
        BuildProgress {
            steps: left.steps + right.steps,
            events: done + left.events + right.events,
            now_us: left.now_us.max(right.now_us),
        }
    }
}

/// Where two runs first part: the index of the first event that differs in each
/// trace (the same index, since every earlier event matched), and its time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    pub index: usize,
    pub at_us: u64,
    /// The first differing event of each side, as the trace writes it (`None` when that
    /// run had ended).
    pub left: Option<String>,
    pub right: Option<String>,
}

/// The first event at which `left` and `right` differ: in kind, session, resource,
/// rows or time. A statement is compared by its session, procedure and kind, not its
/// text or line: a toggle that edits the SQL, or adds lines above a statement, is not a
/// divergence until the statement behaves differently.
pub fn divergence(left: &[TraceEntry], right: &[TraceEntry]) -> Option<Divergence> {
    let n = left.len().max(right.len());
    let index = (0..n).find(|&i| match (left.get(i), right.get(i)) {
        (Some(a), Some(b)) => a.at_us != b.at_us || shape(&a.event) != shape(&b.event),
        _ => true,
    })?;
    let at_us = match (left.get(index), right.get(index)) {
        (Some(a), Some(b)) => a.at_us.min(b.at_us),
        (Some(e), None) | (None, Some(e)) => e.at_us,
        (None, None) => 0,
    };
    Some(Divergence {
        index,
        at_us,
        left: left.get(index).map(|e| crate::i18n::event_line(&e.event)),
        right: right.get(index).map(|e| crate::i18n::event_line(&e.event)),
    })
}

/// The next instant after `t` (`forward`) or the last before it at which either run
/// has an event: where the compare slider's arrow keys go (a millisecond at a time
/// would take thousands of presses to cross a run of seconds).
pub fn next_instant(
    left: &[TraceEntry],
    right: &[TraceEntry],
    t: u64,
    forward: bool,
) -> Option<u64> {
    let one = |trace: &[TraceEntry]| {
        if forward {
            let k = trace.partition_point(|e| e.at_us <= t);
            trace.get(k).map(|e| e.at_us)
        } else {
            let k = trace.partition_point(|e| e.at_us < t);
            k.checked_sub(1).map(|k| trace[k].at_us)
        }
    };
    match (one(left), one(right)) {
        (Some(a), Some(b)) => Some(if forward { a.min(b) } else { a.max(b) }),
        (a, b) => a.or(b),
    }
}

/// An event as compared between runs.
fn shape(event: &Event) -> String {
    match event {
        Event::StatementStarted {
            session,
            label,
            in_proc,
            ..
        } => format!("{session} runs {in_proc:?} {label}"),
        Event::StatementFinished {
            session,
            rows,
            reads,
            ..
        } => format!("{session} finishes {rows:?} {reads}"),
        e => e.to_string(),
    }
}

/// The toggles whose values differ between two settings, as `label: left → right`,
/// each label as the page's language shows it (values are the toggle's own: lessons'
/// help and narrative name them).
/// One side's settings as the page names them: each toggle that differs between the
/// sides as `label: value` (the toggles' labels in the page's language), or, when none
/// differs, every toggle so.
pub fn side_label(lesson: &Lesson, side: &Settings, other: &Settings) -> String {
    let shown = crate::catalog::shown(lesson);
    let named = |differs_only: bool| -> Vec<String> {
        shown
            .toggles
            .iter()
            .filter_map(|t| {
                let v = side.get(&t.name)?;
                (!differs_only || other.get(&t.name) != Some(v))
                    .then(|| format!("{}: {v}", t.label))
            })
            .collect()
    };
    let differing = named(true);
    if differing.is_empty() {
        named(false)
    } else {
        differing
    }
    .join(" · ")
}

/// The settings both sides share that are not the lesson's defaults, as `label: value`
/// joined (`Ranks of the waiting tasks: 3,1,1`), or nothing: what a side's label, which
/// names only what differs, leaves out, though both runs depend on it.
pub fn shared_label(lesson: &Lesson, left: &Settings, right: &Settings) -> Option<String> {
    let shown = crate::catalog::shown(lesson);
    let defaults = lesson.settings_default();
    let shared: Vec<String> = shown
        .toggles
        .iter()
        .filter_map(|t| {
            let v = left.get(&t.name)?;
            (right.get(&t.name) == Some(v) && defaults.get(&t.name) != Some(v))
                .then(|| format!("{}: {v}", t.label))
        })
        .collect();
    (!shared.is_empty()).then(|| shared.join(" · "))
}

pub fn differences(lesson: &Lesson, left: &Settings, right: &Settings) -> Vec<String> {
    let shown = crate::catalog::shown(lesson);
    shown
        .toggles
        .iter()
        .filter_map(|t| {
            let (l, r) = (left.get(&t.name)?, right.get(&t.name)?);
            (l != r).then(|| format!("{}: {l} → {r}", t.label))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;
    use crate::route::Route;

    #[test]
    fn the_route_round_trips_and_names_bad_pairs() {
        let hash = "#/lesson/queue-wait-or-skip/compare?left=readpast:on&right=readpast:off;ranks:3,1,1&seed=4&t=1500";
        let Route::Compare(route) = Route::parse(hash) else {
            panic!("not a compare route")
        };
        assert_eq!(route.left, [("readpast".into(), "on".into())]);
        assert_eq!(
            route.right,
            [
                ("readpast".into(), "off".into()),
                ("ranks".into(), "3,1,1".into())
            ]
        );
        assert_eq!((route.seed, route.time_us), (Some(4), Some(1_500_000)));
        assert_eq!(Route::Compare(route).href(), hash);
        let Route::Compare(embed) = Route::parse("#/embed/x/compare?left=readpast&speed=2") else {
            panic!("not a compare route")
        };
        assert!(embed.embed);
        assert_eq!(
            embed.problems,
            [
                "`left=readpast` is not a toggle setting: write `name:value`, e.g. `left=readpast:off`",
                "`speed` is not a compare parameter: use `left`, `right`, `seed` or `t`"
            ]
        );
    }

    /// Two-step against conditional: the conditional claim's procedure has more lines,
    /// so the same INSERT is on another line; the runs part where they behave
    /// differently, at worker1's UPDATE of the task worker2 has just claimed (it finds
    /// the row in one, and no row still new in the other), not at the shifted line.
    #[test]
    fn a_statement_on_another_line_is_not_a_divergence() {
        let catalog = catalog();
        let lesson = catalog.lesson("queue-claim-race").unwrap();
        let conditional = lesson.settings_with([("claim", "conditional")]).unwrap();
        let run = |s| RunModel::build(lesson, s, lesson.seed).unwrap().trace;
        let (left, right) = (run(&lesson.settings_default()), run(&conditional));
        let d = divergence(&left, &right).expect("they differ");
        let (l, r) = (d.left.unwrap(), d.right.unwrap());
        assert!(l.starts_with("worker1 reads 1 row(s) of task"), "{l} | {r}");
        assert!(r.starts_with("worker1 reads 0 row(s) of task"), "{l} | {r}");
    }

    #[test]
    fn arrow_keys_go_from_instant_to_instant_of_either_run() {
        let at = |us: &[u64]| -> Vec<TraceEntry> {
            us.iter()
                .map(|&at_us| TraceEntry {
                    at_us,
                    event: Event::Printed {
                        session: "A".into(),
                        text: String::new(),
                    },
                })
                .collect()
        };
        let (left, right) = (at(&[0, 10, 10, 40]), at(&[5, 10, 30]));
        let next = |t, forward| next_instant(&left, &right, t, forward);
        assert_eq!(next(0, true), Some(5));
        assert_eq!(next(5, true), Some(10));
        assert_eq!(next(10, true), Some(30));
        assert_eq!(next(40, true), None);
        assert_eq!(next(40, false), Some(30));
        assert_eq!(next(30, false), Some(10));
        assert_eq!(next(12, false), Some(10));
        assert_eq!(next(0, false), None);
    }

    /// READPAST on against off: the runs part where B asks for task 1 (Q2, Q3): one
    /// skips it, the other waits for A's lock.
    #[test]
    fn readpast_on_and_off_diverge_at_bs_request_for_task_1() {
        let lesson = catalog().lesson("queue-wait-or-skip").unwrap().clone();
        let on = lesson.settings_default();
        let off = lesson.settings_with([("readpast", "off")]).unwrap();
        let left = RunModel::build(&lesson, &on, lesson.seed).unwrap();
        let right = RunModel::build(&lesson, &off, lesson.seed).unwrap();
        let d = divergence(&left.trace, &right.trace).expect("they differ");
        let left_text = d.left.unwrap();
        let right_text = d.right.unwrap();
        assert!(left_text.starts_with("B skips"), "{left_text}");
        assert!(right_text.starts_with("B waits for"), "{right_text}");
        assert!(
            right_text.contains("task") || right_text.contains("KEY"),
            "{right_text}"
        );
        assert!(
            (1_500_000..1_501_000).contains(&d.at_us),
            "diverged at {} µs",
            d.at_us
        );
        assert_eq!(
            differences(&lesson, &on, &off),
            ["READPAST hint in the claim: on → off"]
        );
        // Each side is named by what differs, in the toggles' words.
        assert_eq!(
            side_label(&lesson, &off, &on),
            "READPAST hint in the claim: off"
        );
        assert_eq!(
            side_label(&lesson, &on, &on),
            "READPAST hint in the claim: on · Ranks of the waiting tasks: 3,3,2,2,1"
        );
        assert_eq!(divergence(&left.trace, &left.trace), None);
        // A setting both sides share, not the lesson's default, is said once for both.
        assert_eq!(shared_label(&lesson, &on, &off), None);
        let ranks = |readpast| {
            lesson
                .settings_with([("readpast", readpast), ("ranks", "3,1,1")])
                .unwrap()
        };
        assert_eq!(
            shared_label(&lesson, &ranks("on"), &ranks("off")).as_deref(),
            Some("Ranks of the waiting tasks: 3,1,1")
        );
    }
}
