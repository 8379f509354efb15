//! Scenarios built in code for the engine tests.

use engine::{Dialect, Scenario, SessionSpec, Simulation, SqlErrorInfo};

/// A scenario of `dialect`: the setup, and (name, start µs, SQL) per session.
pub fn scenario_in(dialect: Dialect, setup: &str, sessions: &[(&str, u64, &str)]) -> Scenario {
    Scenario {
        dialect,
        setup: setup.into(),
        sessions: sessions
            .iter()
            .map(|(n, t, sql)| SessionSpec {
                name: (*n).into(),
                start_us: *t,
                sql: (*sql).into(),
            })
            .collect(),
    }
}

/// The errors session `name` raised.
pub fn errors_of(sim: &Simulation, name: &str) -> Vec<SqlErrorInfo> {
    sim.outcome()
        .sessions
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no session {name}"))
        .errors
}
