//! The Explore button's job and its words: `explore::Search` over every interleaving of
//! the lesson's sessions, a few engine steps at a time (the worker, `worker.rs`, runs
//! it to the end; the page cancels it by terminating the worker), the [`Answer`] that
//! comes back to the page, and the sentences that report its progress and answer, and
//! word a counterexample's steps and conflict (`explore::Narrated`, `explore::Conflict`:
//! data, whose `Display` and `summary` are the CLI's English) in the page's language.
//! The worker reaches none of the sentences: its wasm carries no catalogue.

use engine::Schedule;
use explore::{Conflict, Narrated, Options, Progress, Report, Search};
use lesson::{Applied, Detail, Property};

use crate::present::group_digits as group;
use crate::t;

/// A search being run.
pub struct Exploring {
    search: Search,
}

impl Exploring {
    /// A search of `property` over `applied`'s interleavings from the setup run with
    /// `seed`, with the library's default bounds.
    pub fn new(applied: &Applied, seed: u64, property: Property) -> Result<Exploring, String> {
        Exploring::with_options(applied, seed, property, Options::default())
    }

    /// The same with other bounds.
    pub fn with_options(
        applied: &Applied,
        seed: u64,
        property: Property,
        options: Options,
    ) -> Result<Exploring, String> {
        // The steps in the language in effect (the worker sets the page's).
        let options = Options { word, ..options };
        Search::new(applied, seed, property, options)
            .map(|search| Exploring { search })
            .map_err(|e| e.to_string())
    }

    /// Works for about `steps` engine steps; the answer once the search is over.
    pub fn advance(&mut self, steps: usize) -> Option<Result<Report, String>> {
        match self.search.step(steps as u64) {
            Ok(true) => self.search.report().cloned().map(Ok),
            Ok(false) => None,
            Err(e) => Some(Err(e.to_string())),
        }
    }

    pub fn progress(&self) -> Progress {
        self.search.progress()
    }
}

/// What the page shows of a finished search: a [`Report`] without the engine's
/// footprints and the property's SQL, so it crosses from the worker in a few hundred
/// bytes (`wire.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The property's label.
    pub label: String,
    pub max_steps: usize,
    pub max_states: usize,
    pub progress: Progress,
    /// The counterexample, when the property broke (boxed: the worker's other replies
    /// are small).
    pub found: Option<Box<Found>>,
}

/// A counterexample as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Replays it (`schedule=` in the player, the scheduler's URL).
    pub schedule: Schedule,
    /// Statements up to the violation.
    pub statements: usize,
    pub switches: usize,
    /// What broke ("got 1 (expected 0)"); `None` when no property was judged.
    pub detail: Option<Detail>,
    /// Each statement narrated ([`step_text`]: "worker1 reads task 1").
    pub steps: Vec<Narrated>,
    /// The read and the write that make the race (indices into `steps`), worded by
    /// [`conflict_text`].
    pub conflict: Option<Conflict>,
}

impl From<&Report> for Answer {
    fn from(report: &Report) -> Answer {
        Answer {
            label: report.property.label.clone(),
            max_steps: report.options.max_steps,
            max_states: report.options.max_states,
            progress: report.progress,
            found: report.counterexample().map(|c| {
                Box::new(Found {
                    schedule: c.schedule.clone(),
                    statements: c.path.len(),
                    switches: c.switches,
                    detail: c.detail.clone(),
                    steps: c.steps.clone(),
                    conflict: c.conflict.clone(),
                })
            }),
        }
    }
}

impl Answer {
    /// The same answer in the language in effect (a switch since the search): its
    /// steps and conflict narrated again from its schedule, its property's label from
    /// `applied`, the lesson in that language. The figures stay the search's. `None`
    /// when the schedule no longer replays (another lesson text).
    pub fn reworded(&self, applied: &Applied, seed: u64, property: &str) -> Option<Answer> {
        let mut answer = self.clone();
        if let Some(p) = crate::scheduling::properties(applied)
            .into_iter()
            .find(|p| p.name == property)
        {
            answer.label = p.label;
        }
        if let Some(found) = &mut answer.found {
            let again = explore::explain(applied, seed, &found.schedule, word).ok()?;
            if again.steps.len() != found.steps.len() {
                return None;
            }
            found.steps = again.steps;
            found.conflict = again.conflict;
        }
        Some(answer)
    }
}

/// A step's trace event in the language in effect ([`explore::Word`]), without the
/// stepping session where the line starts with it: `inserts claim (2)`, `wstawia …`;
/// in Japanese the subject's particle goes with it (`claim (2) を挿入します`), and a
/// line whose session is not its subject stays whole.
pub fn word(event: &engine::Event, session: &str) -> String {
    let line = crate::i18n::event_line(event);
    let rest = explore::after_subject(&line, session);
    let rest = match crate::i18n::lang() {
        crate::i18n::Lang::Ja => {
            rest.and_then(|r| r.strip_prefix("が ").or_else(|| r.strip_prefix("は ")))
        }
        _ => rest,
    };
    rest.map_or_else(|| line.clone(), str::to_string)
}

/// Whether the step's first line names its session, so the sentence needs no subject.
/// Two events do, as a possessive: a Teradata consume that resumes and an
/// sp_getapplock's answer (`clerk's sp_getapplock …`, `sp_getapplock sesji clerk …`,
/// `clerk の sp_getapplock …`); [`word`] leaves such a line whole. Other lines may name
/// the session further on (`owner NULL -> 'worker2'`) and still need it.
fn names_itself(step: &Narrated) -> bool {
    let who = step.who();
    step.reads.is_empty()
        && step.lines.first().is_some_and(|line| {
            line.starts_with(&format!("{who}'s "))
                || line.starts_with(&format!("{who} の "))
                || line.contains(&format!(" sesji {who} "))
        })
}

/// A counterexample's step in the page's language: `worker1 reads task 1 (SELECT …)`,
/// as `Narrated`'s `Display` writes it in English. The statement and the names stay as
/// the run writes them.
pub fn step_text(step: &Narrated) -> String {
    let who = if step.session.is_empty() {
        t!("explore-server")
    } else {
        step.session.clone()
    };
    let mut parts: Vec<String> = Vec::new();
    if !step.reads.is_empty() {
        let rows: Vec<String> = step.reads.iter().map(|(t, k)| format!("{t} {k}")).collect();
        parts.push(t!("explore-step-reads", rows = rows.join(", ")));
    }
    parts.extend(step.lines.iter().cloned());
    if parts.is_empty() {
        return if step.statement.is_empty() {
            t!("explore-step-finishes", who = who)
        } else {
            t!("explore-step-runs", who = who, statement = &step.statement)
        };
    }
    let did = parts.join("; ");
    let did = if names_itself(step) {
        did
    } else if step.session.is_empty() {
        // What the server does (a deadlock's choice) has no subject to conjugate for.
        t!("explore-server-did", who = who, did = did)
    } else {
        t!("explore-step-did", who = who, did = did)
    };
    if step.statement.is_empty() {
        did
    } else {
        t!(
            "explore-step-statement",
            did = did,
            statement = &step.statement
        )
    }
}

/// Why a counterexample breaks, in the page's language: `worker1 reads task 1 before
/// worker2's UPDATE writes it; both go on to write it`, as `Conflict::summary` writes it
/// in English.
pub fn conflict_text(conflict: &Conflict) -> String {
    let row = conflict
        .row
        .as_ref()
        .map_or_else(|| t!("explore-a-row"), |(t, k)| format!("{t} {k}"));
    let (reader, writer) = (&conflict.reader, &conflict.writer);
    if conflict.verb.is_empty() {
        t!(
            "explore-conflict-unnamed",
            reader = reader,
            row = row,
            writer = writer
        )
    } else {
        t!(
            "explore-conflict",
            reader = reader,
            row = row,
            writer = writer,
            verb = &conflict.verb
        )
    }
}

/// `12,400 states explored, depth 16 (deepest 31), 41,000 states/s`.
pub fn progress_text(p: &Progress, elapsed_ms: f64) -> String {
    let rate = if elapsed_ms > 0.0 {
        t!(
            "explore-rate",
            rate = group(((p.states as f64) * 1000.0 / elapsed_ms) as u64)
        )
    } else {
        String::new()
    };
    t!(
        "explore-progress",
        states = group(p.states),
        depth = p.depth,
        deepest = p.max_depth,
        rate = rate
    )
}

/// The bounds a verdict covers, in words.
pub fn bounds_text(answer: &Answer) -> String {
    t!(
        "explore-bounds",
        steps = answer.max_steps,
        states = group(answer.max_states as u64)
    )
}

/// The answer of a finished search, in one sentence.
pub fn verdict_text(answer: &Answer, elapsed_ms: f64) -> String {
    let p = &answer.progress;
    let took = group(elapsed_ms.round() as u64);
    match &answer.found {
        None if p.exhaustive => t!(
            "explore-holds",
            label = &answer.label,
            bounds = bounds_text(answer),
            states = p.states,
            schedules = p.schedules,
            took = took
        ),
        None => t!(
            "explore-held",
            label = &answer.label,
            bounds = bounds_text(answer),
            states = p.states,
            schedules = p.schedules,
            walks = p.walks,
            took = took
        ),
        Some(c) => t!(
            "explore-breaks",
            label = &answer.label,
            statements = c.statements,
            switches = c.switches,
            detail = c.detail.as_ref().map(i18n::detail).unwrap_or_default(),
            states = p.states,
            took = took
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduling::{properties, Scheduling};
    use explore::Verdict;

    fn applied(claim: &str) -> Applied {
        let catalog = crate::catalog::catalog();
        let lesson = catalog.lesson("queue-claim-race").expect("lesson");
        let settings = lesson
            .settings_with([("claim", claim), ("tasks", "3"), ("workers", "2")])
            .expect("settings");
        lesson.apply(&settings).expect("applies")
    }

    fn explore(claim: &str) -> Report {
        let applied = applied(claim);
        let property = properties(&applied).remove(0);
        assert_eq!(property.name, "no-double-claim");
        let mut job = Exploring::new(&applied, 1, property).expect("starts");
        loop {
            if let Some(done) = job.advance(64) {
                return done.expect("no error");
            }
        }
    }

    #[test]
    fn the_two_step_claim_breaks_and_its_schedule_opens_in_the_scheduler() {
        let report = explore("two-step");
        let Verdict::Violated(c) = &report.verdict else {
            panic!("holds: {report:?}");
        };
        let answer = Answer::from(&report);
        assert_eq!(answer.found.as_ref().unwrap().statements, c.path.len());
        assert_eq!(answer.found.as_ref().unwrap().steps.len(), c.steps.len());
        let text = verdict_text(&answer, 12.5);
        assert!(
            text.starts_with("“No task is claimed twice” breaks after"),
            "{text}"
        );
        assert!(text.ends_with("in 13 ms."), "{text}");
        // The scheduler replays the counterexample into the same broken state.
        let mut s = Scheduling::new(applied("two-step"), 1).unwrap();
        s.replay(Some(&c.schedule), Some(c.path.len()));
        assert_eq!(s.problem, None);
        let broken = s.broken();
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert_eq!(broken[0].step, c.path.len());

        // And in the player: the run replays it and claims a task twice.
        let builder = crate::run::RunBuilder::new("queue-claim-race", applied("two-step"), 1)
            .unwrap()
            .with_schedule(Some(&c.schedule));
        let mut job = Some(builder);
        let run = loop {
            if let Some(run) = crate::sliced::Job::advance(&mut job, 64) {
                break run;
            }
        };
        assert_eq!(run.schedule_problem, None);
        assert_eq!(run.key.schedule.as_ref(), Some(&c.schedule));
        assert!(!run.anomalies.is_empty(), "no duplicate in the replay");
        let bad: engine::Schedule = "u.7".parse().unwrap();
        let run = crate::run::RunBuilder::new("queue-claim-race", applied("two-step"), 1)
            .unwrap()
            .with_schedule(Some(&bad));
        let mut job = Some(run);
        let run = loop {
            if let Some(run) = crate::sliced::Job::advance(&mut job, 64) {
                break run;
            }
        };
        assert!(run
            .schedule_problem
            .unwrap()
            .to_string()
            .contains("schedule choice 1 picks session 7"));
    }

    /// English words each step and the conflict exactly as the CLI prints them
    /// (`Display`, `summary`); Polish and Japanese word the same data, keeping the
    /// sessions, the rows, the statements and the trace's lines.
    #[test]
    fn the_claim_race_counterexample_reads_in_the_page_language() {
        use crate::i18n::{set_lang, Lang};
        let report = explore("two-step");
        let answer = Answer::from(&report);
        let found = answer.found.as_ref().expect("a counterexample");
        let conflict = found.conflict.as_ref().expect("a conflict");
        set_lang(Lang::En);
        for step in &found.steps {
            assert_eq!(step_text(step), step.to_string());
        }
        assert_eq!(conflict_text(conflict), conflict.summary());
        assert_eq!(
            step_text(&found.steps[conflict.read]),
            "worker1 reads task 1 (SELECT TOP (1) @id = id FROM dbo.task …)"
        );

        let english = [
            " reads ",
            "reads ",
            " before ",
            "both go on",
            " writes it",
            " runs ",
            "server",
            "finishes",
            "a row",
        ];
        for (lang, read, summary) in [
            (
                Lang::Pl,
                "worker1 odczytuje task 1 (SELECT TOP (1) @id = id FROM dbo.task …)",
                "worker1 odczytuje task 1, zanim UPDATE sesji worker2 go zapisze; obie potem go zapisują",
            ),
            (
                Lang::Ja,
                "worker1 が task 1 を読み取ります（SELECT TOP (1) @id = id FROM dbo.task …）",
                "worker2 の UPDATE が task 1 を書き込む前に worker1 がそれを読み取り、その後両方がそれを書き込みます",
            ),
        ] {
            set_lang(lang);
            let step = step_text(&found.steps[conflict.read]);
            let why = conflict_text(conflict);
            assert_eq!(step, read, "{lang:?}");
            assert_eq!(why, summary, "{lang:?}");
            for text in [&step, &why] {
                for word in english {
                    assert!(!text.contains(word), "{lang:?}: {word:?} in {text}");
                }
            }
            // Searched in this language, the steps word the trace's events in it too.
            let report = explore("two-step");
            let worded = Answer::from(&report).found.expect("a counterexample").steps;
            assert_eq!(worded.len(), found.steps.len());
            let lines: Vec<&String> = worded.iter().flat_map(|s| &s.lines).collect();
            assert!(!lines.is_empty());
            for line in lines {
                for word in [" inserts ", "inserts ", "updates ", "commits", "finishes ", "begins "] {
                    assert!(!line.contains(word), "{lang:?}: {word:?} in {line}");
                }
                assert!(!line.starts_with("worker"), "{lang:?}: the subject stays: {line}");
            }
            // Every step keeps its session's name and statement.
            for narrated in &found.steps {
                let text = step_text(narrated);
                assert!(text.starts_with(&narrated.session), "{lang:?}: {text}");
                assert!(text.contains(&narrated.statement), "{lang:?}: {text}");
                assert!(!text.contains(" reads ") && !text.contains(" runs "), "{text}");
            }
        }
        set_lang(Lang::En);
    }

    /// A language switch after a search words its answer again without searching: the
    /// same steps and conflict as a search in that language, the figures unchanged.
    #[test]
    fn a_found_counterexample_is_worded_again_in_the_new_language() {
        use crate::i18n::{set_lang, Lang};
        set_lang(Lang::En);
        let english = Answer::from(&explore("two-step"));
        // In English, narrating its schedule again gives back the search's own words.
        let same = english.reworded(&applied("two-step"), 1, "no-double-claim");
        assert_eq!(same.as_ref(), Some(&english));
        for lang in [Lang::Pl, Lang::Ja] {
            set_lang(lang);
            let searched = Answer::from(&explore("two-step"));
            let reworded = english
                .reworded(&applied("two-step"), 1, "no-double-claim")
                .expect("replays");
            let (a, b) = (
                reworded.found.as_ref().unwrap(),
                searched.found.as_ref().unwrap(),
            );
            assert_eq!(a.steps, b.steps, "{lang:?}");
            assert_eq!(a.conflict, b.conflict, "{lang:?}");
            assert_ne!(a.steps, english.found.as_ref().unwrap().steps, "{lang:?}");
            assert_eq!(reworded.progress, english.progress);
            assert_eq!(a.schedule, english.found.as_ref().unwrap().schedule);
        }
        set_lang(Lang::En);
    }

    /// A line that names its session as a possessive needs no subject in any language;
    /// one that names it further on still does.
    #[test]
    fn a_step_names_its_session_only_by_a_possessive() {
        let step = |line: &str| Narrated {
            session: "clerk".into(),
            statement: String::new(),
            reads: Vec::new(),
            lines: vec![line.into()],
        };
        for line in [
            "clerk's sp_getapplock for Exclusive on doc returns 0: granted",
            "sp_getapplock sesji clerk dla Exclusive na doc zwraca 0: przyznana",
            "clerk の doc に対する Exclusive の sp_getapplock は 0 を返します: 許可",
        ] {
            assert!(names_itself(&step(line)), "{line}");
        }
        assert!(!names_itself(&step(
            "updates doc (1): owner NULL -> 'clerk'"
        )));
    }

    /// The forms the claim race does not show: a statement that did nothing to show, a
    /// step that only finishes one, the server's own step, a line that names its
    /// session, a conflict on a row with no name, by a step that started no statement.
    #[test]
    fn every_form_of_a_step_and_a_conflict_reads_as_the_cli_in_english() {
        use crate::i18n::{set_lang, Lang};
        let step =
            |session: &str, statement: &str, reads: &[(&str, &str)], lines: &[&str]| Narrated {
                session: session.into(),
                statement: statement.into(),
                reads: reads
                    .iter()
                    .map(|&(t, k)| (t.to_string(), k.to_string()))
                    .collect(),
                lines: lines.iter().map(|l| l.to_string()).collect(),
            };
        let steps = [
            step("worker1", "WAITFOR DELAY '00:00:01'", &[], &[]),
            step("worker1", "", &[], &[]),
            step("", "", &[], &["deadlock: worker2 is the victim"]),
            step(
                "clerk",
                "EXEC sp_getapplock @Resource = 'doc'",
                &[],
                &["clerk's sp_getapplock on doc waits"],
            ),
            step(
                "worker2",
                "SELECT id FROM dbo.task WITH (READPAST)",
                &[("task", "1"), ("task", "3")],
                &["skips task 2 (READPAST)", "commits"],
            ),
            step("worker2", "", &[], &["commits"]),
        ];
        let conflicts = [
            Conflict {
                read: 1,
                write: 2,
                reader: "A".into(),
                writer: "B".into(),
                verb: String::new(),
                row: None,
            },
            Conflict {
                read: 1,
                write: 2,
                reader: "A".into(),
                writer: "B".into(),
                verb: "DELETE".into(),
                row: Some(("claim".into(), "7".into())),
            },
        ];
        set_lang(Lang::En);
        let english: Vec<String> = steps.iter().map(step_text).collect();
        assert_eq!(
            english,
            [
                "worker1 runs WAITFOR DELAY '00:00:01'",
                "worker1 finishes its statement",
                "server deadlock: worker2 is the victim",
                "clerk's sp_getapplock on doc waits (EXEC sp_getapplock @Resource = 'doc')",
                "worker2 reads task 1, task 3; skips task 2 (READPAST); commits \
                 (SELECT id FROM dbo.task WITH (READPAST))",
                "worker2 commits",
            ]
        );
        for (step, text) in steps.iter().zip(&english) {
            assert_eq!(*text, step.to_string());
        }
        for c in &conflicts {
            assert_eq!(conflict_text(c), c.summary());
        }
        assert_eq!(
            conflicts[0].summary(),
            "A reads a row before B's WRITE writes it; both go on to write it"
        );

        // A trace line stays as written, the aside included in Polish.
        let translated = [
            (
                Lang::Pl,
                [
                    "worker1 wykonuje WAITFOR DELAY '00:00:01'",
                    "worker1 kończy swoją instrukcję",
                    "serwer deadlock: worker2 is the victim",
                    english[3].as_str(),
                    "worker2 odczytuje task 1, task 3; skips task 2 (READPAST); commits \
                     (SELECT id FROM dbo.task WITH (READPAST))",
                    "worker2 commits",
                ],
                [
                    "A odczytuje wiersz, zanim sesja B go zapisze; obie potem go zapisują",
                    "A odczytuje claim 7, zanim DELETE sesji B go zapisze; obie potem go zapisują",
                ],
            ),
            (
                Lang::Ja,
                [
                    "worker1 が WAITFOR DELAY '00:00:01' を実行します",
                    "worker1 が文を終えます",
                    "サーバー: deadlock: worker2 is the victim",
                    "clerk's sp_getapplock on doc waits（EXEC sp_getapplock @Resource = 'doc'）",
                    "worker2 が task 1, task 3 を読み取ります; skips task 2 (READPAST); commits\
                     （SELECT id FROM dbo.task WITH (READPAST)）",
                    "worker2 が commits",
                ],
                [
                    "B がある行を書き込む前に A がそれを読み取り、その後両方がそれを書き込みます",
                    "B の DELETE が claim 7 を書き込む前に A がそれを読み取り、その後両方がそれを書き込みます",
                ],
            ),
        ];
        for (lang, lines, why) in translated {
            set_lang(lang);
            let texts: Vec<String> = steps.iter().map(step_text).collect();
            assert_eq!(texts, lines, "{lang:?}");
            let texts: Vec<String> = conflicts.iter().map(conflict_text).collect();
            assert_eq!(texts, why, "{lang:?}");
        }
        set_lang(Lang::En);
    }

    #[test]
    fn one_statement_holds_exhaustively() {
        let report = explore("one-statement");
        assert!(report.holds() && report.exhaustive(), "{report:?}");
        let text = verdict_text(&Answer::from(&report), 2000.0);
        assert!(
            text.contains(
                "holds for every interleaving up to 400 steps per interleaving and 200,000 states"
            ),
            "{text}"
        );
        assert!(text.contains("exhaustively, in 2,000 ms"), "{text}");
        assert!(report.progress.states > 10);
    }

    #[test]
    fn progress_reads_as_figures() {
        let p = Progress {
            states: 12_400,
            depth: 16,
            max_depth: 31,
            ..Progress::default()
        };
        assert_eq!(
            progress_text(&p, 500.0),
            "12,400 states explored, depth 16 (deepest 31), 24,800 states/s"
        );
    }
}
