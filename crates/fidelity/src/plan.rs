//! A lesson under one setting, as a real server runs it: the setup's statements, and
//! each session's statements with its start offset.

use lesson::{Applied, BlockRole, Lesson, Settings};

use crate::split::statements;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub lesson: String,
    /// `claim=two-step workers=2`, as `lockstep run` prints settings.
    pub settings: String,
    pub setup: Vec<String>,
    pub sessions: Vec<SessionPlan>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionPlan {
    pub name: String,
    /// Microseconds after the sessions' common start, as the lesson's `start=`.
    pub start_us: u64,
    pub statements: Vec<String>,
}

/// The plan of `lesson` under `settings`, and the applied lesson the simulator runs.
pub fn plan(lesson: &Lesson, settings: &Settings) -> Result<(Plan, Applied), String> {
    let applied = lesson.apply(settings).map_err(|e| e.to_string())?;
    // Setup blocks one by one: the engine's script joins them with separators a real
    // server would not accept.
    let setup = applied
        .blocks
        .iter()
        .filter(|b| b.role == BlockRole::Setup)
        .flat_map(|b| statements(&b.text))
        .collect();
    let sessions = applied
        .scenario
        .sessions
        .iter()
        .map(|s| SessionPlan {
            name: s.name.clone(),
            start_us: s.start_us,
            statements: statements(&s.sql),
        })
        .collect();
    let plan = Plan {
        lesson: lesson.id.clone(),
        settings: settings.to_string(),
        setup,
        sessions,
    };
    Ok((plan, applied))
}
