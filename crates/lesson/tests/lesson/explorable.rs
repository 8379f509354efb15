//! The engine as an explorable state machine, over every lesson: schedules as data
//! (record, print, replay), cheap clones that step like the original, footprints, and
//! fingerprints that merge commuting orders and nothing else.

use engine::{Mode, Scenario, Schedule, SessionSpec, Simulation, Sink, Trace};
use lockstep_lesson::{run_with, Applied, Lesson};

pub(crate) fn lessons() -> Vec<Lesson> {
    let dir = format!("{}/../../lessons", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("README.md"))
        .collect();
    files.sort();
    assert!(files.len() >= 18, "{files:?}");
    files
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(p).unwrap();
            Lesson::parse(&name, &text).unwrap_or_else(|e| panic!("{e:?}"))
        })
        .collect()
}

fn applied(l: &Lesson) -> Applied {
    l.apply(&l.settings_default()).expect("applies")
}

/// Every lesson's default run, timed and untimed, random choices: printing its schedule,
/// parsing it back and replaying it gives the same trace, byte for byte.
#[test]
fn replaying_the_recorded_schedule_of_a_random_run_gives_the_same_trace() {
    let mut choices = 0;
    for l in lessons() {
        let a = applied(&l);
        for (mode, seed) in [(Mode::Timed, l.seed), (Mode::Timed, 99), (Mode::Untimed, 3)] {
            let first = Schedule {
                mode,
                choices: Vec::new(),
            };
            let r1 = run_with(&a, seed, Some(&first)).unwrap();
            let text = r1.schedule.to_string();
            let parsed: Schedule = text.parse().unwrap();
            assert_eq!(parsed, r1.schedule, "{}: {text}", l.id);
            let r2 = run_with(&a, seed, Some(&parsed)).unwrap();
            assert_eq!(r2.schedule, r1.schedule, "{} {mode:?}", l.id);
            assert!(
                r1.trace.to_string() == r2.trace.to_string(),
                "{} {mode:?} seed {seed}: replay of `{text}` differs",
                l.id
            );
            choices += r1.schedule.choices.len();
        }
    }
    assert!(choices > 100, "the runs made only {choices} choices");
}

/// An untimed run differs from a timed one, and its choices are real: another schedule
/// of the same lesson gives another trace.
#[test]
fn untimed_runs_choose_at_every_statement_boundary() {
    let l = lessons()
        .into_iter()
        .find(|l| l.id == "queue-wait-or-skip")
        .unwrap();
    let a = applied(&l);
    let untimed = |choices: Vec<usize>| {
        run_with(
            &a,
            1,
            Some(&Schedule {
                mode: Mode::Untimed,
                choices,
            }),
        )
        .unwrap()
    };
    let b_first = untimed(vec![1; 40]);
    let a_first = untimed(vec![0; 40]);
    assert!(b_first.schedule.choices.len() >= 2, "{}", b_first.schedule);
    assert_ne!(b_first.trace.to_string(), a_first.trace.to_string());
    assert!(b_first.schedule.to_string().starts_with("u.1"));
}

/// A scripted pick of a session that cannot run is an error naming the choice.
#[test]
fn a_pick_that_is_not_enabled_is_an_error_naming_the_choice() {
    let l = lessons()
        .into_iter()
        .find(|l| l.id == "queue-wait-or-skip")
        .unwrap();
    let a = applied(&l);
    let bad = Schedule {
        mode: Mode::Untimed,
        choices: vec![7],
    };
    let e = run_with(&a, 1, Some(&bad)).err().expect("refused");
    assert_eq!(
        e.to_string(),
        "schedule choice 1 picks session 7, which does not exist, but only A, B can run then"
    );
    let mut sim = Simulation::new(&a.scenario, 1).unwrap();
    let e = sim.step_session(5).unwrap_err();
    assert_eq!(e.choice, 1);
}

fn trace_of(sim: &mut Simulation, steps: usize) -> Trace {
    let mut t = Trace::default();
    for _ in 0..steps {
        if !sim.step() {
            break;
        }
        t.entries.extend(sim.take_events());
    }
    t
}

/// A clone taken mid-run steps exactly like the original, in every lesson.
#[test]
fn a_clone_taken_mid_run_steps_like_the_original() {
    for l in lessons() {
        let a = applied(&l);
        let mut sim = Simulation::new(&a.scenario, l.seed).unwrap();
        trace_of(&mut sim, 60);
        let mut copy = sim.clone();
        assert_eq!(copy.fingerprint(), sim.fingerprint(), "{}", l.id);
        let t1 = trace_of(&mut sim, 100_000);
        let t2 = trace_of(&mut copy, 100_000);
        assert!(!t1.entries.is_empty() || sim.is_finished(), "{}", l.id);
        assert!(t1 == t2, "{}: the clone's trace differs", l.id);
        assert_eq!(sim.outcome(), copy.outcome(), "{}", l.id);
    }
}

/// The sinks change what is kept, never what happens.
#[test]
fn a_silent_run_ends_in_the_same_state() {
    for l in lessons() {
        let a = applied(&l);
        let mut full = Simulation::new(&a.scenario, l.seed).unwrap();
        let mut silent = full.clone();
        silent.set_sink(Sink::Nothing);
        let mut counted = full.clone();
        counted.set_sink(Sink::Counters);
        let trace = full.run_traced().unwrap();
        silent.run().unwrap();
        counted.run().unwrap();
        assert_eq!(full.outcome(), silent.outcome(), "{}", l.id);
        assert_eq!(full.fingerprint(), silent.fingerprint(), "{}", l.id);
        assert_eq!(
            counted.event_count(),
            trace.entries.len() as u64,
            "{}",
            l.id
        );
        // Only the setup event, made before the sink was switched off.
        assert_eq!(silent.event_count(), 1, "{}", l.id);
    }
}

fn two_tables() -> Scenario {
    Scenario {
        setup: "CREATE TABLE a (id int PRIMARY KEY, v int);\n\
                CREATE TABLE b (id int PRIMARY KEY, v int);\n\
                INSERT a VALUES (1, 0);\nINSERT b VALUES (1, 0);"
            .into(),
        sessions: vec![
            SessionSpec {
                name: "A".into(),
                start_us: 0,
                sql: "BEGIN TRAN;\nUPDATE a SET v = 1 WHERE id = 1;\nCOMMIT;".into(),
            },
            SessionSpec {
                name: "B".into(),
                start_us: 0,
                sql: "BEGIN TRAN;\nUPDATE b SET v = 1 WHERE id = 1;\nCOMMIT;".into(),
            },
        ],
        ..Scenario::default()
    }
}

fn untimed(sc: &Scenario) -> Simulation {
    let mut sim = Simulation::new(sc, 1).unwrap();
    sim.set_mode(Mode::Untimed);
    sim
}

/// Independent steps in either order reach states with equal fingerprints; their
/// footprints say they are independent. Different data or locks, different prints.
#[test]
fn fingerprints_merge_commuting_orders_and_nothing_else() {
    let sc = two_tables();
    // Start both, run each one's UPDATE: A then B, and B then A.
    let run = |order: &[usize]| {
        let mut sim = untimed(&sc);
        let prints: Vec<_> = order
            .iter()
            .map(|&i| sim.step_session(i).unwrap())
            .collect();
        (sim, prints)
    };
    let (ab, fa) = run(&[0, 1, 0, 1]);
    let (ba, fb) = run(&[1, 0, 1, 0]);
    assert_eq!(ab.fingerprint(), ba.fingerprint());
    assert!(fa[2].independent(&fa[3]), "{:?} {:?}", fa[2], fa[3]);
    assert!(fb[2].independent(&fb[3]) && fb[2].session == 1);
    assert!(!fa[2].rows_written.is_empty() && !fa[2].locks_taken.is_empty());
    // Same steps, but A's update only: data and locks differ from both updated.
    let (a_only, _) = run(&[0, 1, 0]);
    assert_ne!(a_only.fingerprint(), ab.fingerprint());
    // Same data, different locks: A commits in one, not the other.
    let (mut committed, _) = run(&[0, 1, 0, 1]);
    let before = committed.fingerprint();
    committed.step_session(0).unwrap();
    assert_ne!(
        committed.fingerprint(),
        before,
        "a commit changes locks and versions"
    );
    // Two sessions updating the same row: their steps are not independent.
    let mut same = sc.clone();
    same.sessions[1].sql = "BEGIN TRAN;\nUPDATE a SET v = 2 WHERE id = 1;\nCOMMIT;".into();
    let mut sim = untimed(&same);
    sim.step_session(0).unwrap();
    sim.step_session(1).unwrap();
    let fa = sim.step_session(0).unwrap();
    let fb = sim.step_session(1).unwrap();
    assert!(fb.waited_for.is_some(), "B waits for A's row: {fb:?}");
    assert!(!fa.independent(&fb));
    assert!(
        !sim.enabled().contains(&1),
        "a blocked session is not enabled"
    );
}

/// Untimed: a deadlock is found as soon as it forms, and a run where every session
/// waits forever ends with a clear error instead of hanging.
#[test]
fn untimed_runs_find_deadlocks_at_once() {
    let mut sc = two_tables();
    sc.sessions[0].sql =
        "BEGIN TRAN;\nUPDATE a SET v = 1 WHERE id = 1;\nUPDATE b SET v = 1 WHERE id = 1;\nCOMMIT;"
            .into();
    sc.sessions[1].sql =
        "BEGIN TRAN;\nUPDATE b SET v = 2 WHERE id = 1;\nUPDATE a SET v = 2 WHERE id = 1;\nCOMMIT;"
            .into();
    let mut sim = untimed(&sc);
    for i in [0, 1, 0, 1, 0, 1] {
        if sim.enabled().contains(&i) {
            sim.step_session(i).unwrap();
        }
    }
    let trace = sim.run_traced().unwrap();
    let o = sim.outcome();
    let errors: Vec<u32> = o
        .sessions
        .iter()
        .flat_map(|s| s.errors.iter().map(|e| e.number))
        .collect();
    assert_eq!(errors, [1205], "{trace}");
    assert!(o.end_us < 1_000_000, "no 5 s monitor wait: {}", o.end_us);
}

/// Any `Scheduler` can drive a run; its picks are recorded like the built-in ones and
/// replay to the same trace.
#[test]
fn a_custom_scheduler_drives_a_run_and_its_picks_replay() {
    struct Last;
    impl engine::Scheduler for Last {
        fn pick(&mut self, enabled: &[usize]) -> Option<usize> {
            enabled.last().copied()
        }
    }
    let l = lessons()
        .into_iter()
        .find(|l| l.id == "send-double-click")
        .unwrap();
    let a = applied(&l);
    let mut sim = Simulation::new(&a.scenario, l.seed).unwrap();
    sim.set_mode(Mode::Untimed);
    let mut trace = Trace {
        entries: sim.take_events(),
    };
    while sim.step_with(&mut Last).unwrap() {
        trace.entries.extend(sim.take_events());
    }
    let schedule = sim.schedule();
    assert!(!schedule.choices.is_empty());
    let replay = run_with(&a, l.seed, Some(&schedule)).unwrap();
    assert!(replay.trace == trace, "{schedule}");
}

/// The trace never shows a lock released that it did not show granted: a lock a
/// statement takes for itself alone (a unique check's S on a clashing key) is not
/// shown, and neither is its release when an error ends the transaction first. Every
/// lesson, every combination of its toggles (capped as `lockstep check` caps them).
#[test]
fn every_lock_the_trace_releases_it_showed_granted() {
    use engine::Event;
    use std::collections::HashSet;
    for l in lessons() {
        for settings in l.all_combinations().settings {
            let a = l.apply(&settings).expect("applies");
            let report = run_with(&a, l.seed, None).unwrap();
            let mut held: HashSet<(String, String)> = HashSet::new();
            for (k, e) in report.trace.entries.iter().enumerate() {
                match &e.event {
                    Event::LockGranted {
                        session, resource, ..
                    } => {
                        held.insert((session.to_string(), resource.clone()));
                    }
                    Event::LockReleased {
                        session, resource, ..
                    } => {
                        let key = (session.to_string(), resource.clone());
                        assert!(
                            held.remove(&key),
                            "{} {settings}: event {k} `{}` releases a lock never shown granted",
                            l.id,
                            e.event
                        );
                    }
                    _ => {}
                }
            }
        }
    }
}
