//! Where the two conflicting steps of a replayed counterexample are in the player's run
//! (`RunModel::explained`): untimed, the run steps exactly as the narration does, one
//! engine step per narrated step, so step `k` of the narration is the run's step `k + 1`.

use crate::exploring::step_text;
use crate::run::RunModel;

/// One of the two conflicting steps, placed on the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictStep {
    /// Index into the narration (`Counterexample::steps`).
    pub step: usize,
    pub session: String,
    /// Events shown once the step is done: where clicking it seeks.
    pub events: usize,
    /// When its last event happened, to place it on the lanes.
    pub at_us: u64,
    /// The narrated line in the page's language: `worker1 reads task 1 (SELECT …)`.
    pub line: String,
}

/// The read and then the write of the run's conflict, if it has one.
pub fn conflict_steps(run: &RunModel) -> Vec<ConflictStep> {
    let Some(c) = run.explained() else {
        return Vec::new();
    };
    let Some(conflict) = &c.conflict else {
        return Vec::new();
    };
    [conflict.read, conflict.write]
        .into_iter()
        .filter_map(|step| {
            let events = *run.bounds.get(step + 1)?;
            let narrated = c.steps.get(step)?;
            Some(ConflictStep {
                step,
                session: narrated.session.clone(),
                events,
                at_us: run.trace.get(events.checked_sub(1)?)?.at_us,
                line: step_text(narrated),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_claim_race_counterexample_marks_worker1_read_and_worker2_update() {
        let catalog = crate::catalog::catalog();
        let lesson = catalog.lesson("queue-claim-race").expect("lesson");
        let settings = lesson
            .settings_with([("claim", "two-step"), ("tasks", "3")])
            .expect("settings");
        let applied = lesson.apply(&settings).expect("applies");
        let schedule: engine::Schedule = "u.0~6.1~8.0~2".parse().unwrap();
        let mut builder = crate::run::RunBuilder::new("queue-claim-race", applied, lesson.seed)
            .unwrap()
            .with_schedule(Some(&schedule));
        while !builder.advance(256) {}
        let run = builder.finish();
        let steps = conflict_steps(&run);
        let picked: Vec<(usize, &str)> =
            steps.iter().map(|s| (s.step, s.session.as_str())).collect();
        assert_eq!(picked, [(4, "worker1"), (12, "worker2")]);
        assert!(
            steps[0].line.starts_with("worker1 reads task 1"),
            "{}",
            steps[0].line
        );
        // The run's events of those steps are the narrated statements: worker1's SELECT,
        // worker2's UPDATE.
        for (s, text) in steps.iter().zip(["SELECT", "UPDATE"]) {
            let started = run.trace[run.bounds[s.step]..s.events]
                .iter()
                .find_map(|e| match &e.event {
                    engine::Event::StatementStarted { text, .. } => Some(text.to_string()),
                    _ => None,
                })
                .unwrap_or_default();
            assert!(started.starts_with(text), "step {}: {started}", s.step);
        }
        let summary = &run
            .explained()
            .unwrap()
            .conflict
            .as_ref()
            .unwrap()
            .summary();
        assert!(
            summary.starts_with("worker1 reads task 1 before worker2's UPDATE"),
            "{summary}"
        );
        // In the page's language, the narrated line keeps the session, row and statement.
        // The run was built in English: switched, it narrates its steps again, the
        // trace's lines included.
        crate::i18n::set_lang(crate::i18n::Lang::Pl);
        let steps = conflict_steps(&run);
        let line = steps[0].line.clone();
        let write = steps[1].line.clone();
        crate::i18n::set_lang(crate::i18n::Lang::En);
        assert!(write.contains(" zmienia task (1)"), "{write}");
        assert!(conflict_steps(&run)[1].line.contains(" updates task (1)"));
        assert!(
            line.starts_with("worker1 odczytuje task 1 (SELECT TOP (1)"),
            "{line}"
        );
    }
}
