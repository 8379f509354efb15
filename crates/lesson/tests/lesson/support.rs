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
        setup_blocks: Vec::new(),
        limits: Default::default(),
    }
}

/// The errors session `name` raised.
pub fn errors_of(sim: &Simulation, name: &str) -> Vec<SqlErrorInfo> {
    session_of(sim, name).errors
}

/// The outcome of session `name`.
pub fn session_of(sim: &Simulation, name: &str) -> engine::SessionOutcome {
    sim.outcome()
        .sessions
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no session {name}"))
}

/// (number, message) of each error session `name` raised.
pub fn errors(sim: &Simulation, name: &str) -> Vec<(u32, String)> {
    errors_of(sim, name)
        .into_iter()
        .map(|e| (e.number, e.message))
        .collect()
}

/// The numbers of the errors session `name` raised.
pub fn numbers(sim: &Simulation, name: &str) -> Vec<u32> {
    errors(sim, name).into_iter().map(|(n, _)| n).collect()
}

/// Runs a scenario with seed 1: the simulation and its trace as text.
pub fn run_traced(sc: &Scenario) -> (Simulation, String) {
    let mut sim = Simulation::new(sc, 1).unwrap_or_else(|e| panic!("{e:?}"));
    let trace = sim.run_traced().unwrap();
    (sim, trace.to_string())
}

/// Milliseconds session `name` waited for locks.
pub fn waited_ms(sim: &Simulation, name: &str) -> u64 {
    session_of(sim, name).wait_us / 1000
}
