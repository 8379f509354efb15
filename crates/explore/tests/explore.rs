//! Explore mode's acceptance figures, over the lessons as shipped.

use lesson::{find_property, Lesson};
use lockstep_explore::{Options, Report, Search};

fn lesson(id: &str) -> Lesson {
    let path = format!("{}/../../lessons/{id}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    Lesson::parse(&format!("{id}.md"), &text).unwrap_or_else(|e| panic!("{e:?}"))
}

fn explore(id: &str, set: &[(&str, &str)], property: &str, options: Options) -> Report {
    let l = lesson(id);
    let settings = l.settings_with(set.iter().copied()).unwrap();
    let applied = l.apply(&settings).unwrap();
    let property = find_property(&applied.properties, property).expect("property");
    Search::new(&applied, l.seed, property, options)
        .unwrap()
        .run()
        .unwrap()
}

/// Two-step, 2 workers × 3 tasks: a duplicate claim in the fewest steps possible.
/// Each worker runs eight statements up to its first claim (EXEC, SET NOCOUNT,
/// DECLARE, SET @id, SELECT, WAITFOR, UPDATE, INSERT), and a duplicate is two first
/// claims of task 1: 16 steps. worker1 must read before worker2's UPDATE and write
/// after worker2 read, so at least two context switches.
#[test]
fn claim_race_two_step_finds_a_duplicate_in_16_steps() {
    let r = explore(
        "queue-claim-race",
        &[("claim", "two-step"), ("tasks", "3")],
        "no-double-claim",
        Options::default(),
    );
    let c = r.counterexample().expect("a duplicate");
    assert_eq!(c.steps.len(), 16);
    assert_eq!(c.switches, 2);
    assert_eq!(c.schedule.to_string(), "u.0~6.1~8.0~2");
    assert_eq!(c.detail, "got 1 (expected 0)");
}
