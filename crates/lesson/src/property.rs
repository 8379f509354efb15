//! Properties: what a lesson promises for every interleaving of its sessions
//! (`[[properties]]`), as SQL over the state or a built-in figure. Explore mode's search
//! (`crates/explore`) checks them in each state it reaches; a check runs them on one run.

use engine::{Simulation, Value};

use crate::check::Bound;
use crate::detail::Detail;
use crate::toggle::Condition;

/// A promise of the lesson, shown by its `label` and found by its `name` (a contract:
/// `lockstep explore --property NAME`, links and tests use it).
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    pub name: String,
    pub label: String,
    /// The property applies only when every condition holds.
    pub when: Vec<Condition>,
    pub kind: PropertyKind,
    /// Position of the property's `name` in the lesson file (1-based; 0 for built-ins
    /// that the lesson does not declare).
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PropertyKind {
    /// `always = "SQL"`: one number, within the bound after every step.
    Always { sql: String, bound: Bound },
    /// `at_end = "SQL"`: one number, within the bound once every session has finished.
    AtEnd { sql: String, bound: Bound },
    /// `holds = "no-errors"` or `"no-deadlock"`, checked after every step.
    Builtin(Builtin),
}

/// Figures every lesson has, without SQL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "parse", derive(serde::Deserialize))]
#[cfg_attr(feature = "parse", serde(rename_all = "kebab-case"))]
pub enum Builtin {
    /// No session raises an error that no TRY block catches.
    NoErrors,
    /// No session is chosen as a deadlock victim (1205), and the sessions never all
    /// wait for what none of them will release.
    NoDeadlock,
}

impl Builtin {
    pub const ALL: [Builtin; 2] = [Builtin::NoErrors, Builtin::NoDeadlock];

    pub fn name(self) -> &'static str {
        match self {
            Builtin::NoErrors => "no-errors",
            Builtin::NoDeadlock => "no-deadlock",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Builtin::NoErrors => "No session ends with an error",
            Builtin::NoDeadlock => "No deadlock",
        }
    }

    /// The property of this figure, for a lesson that does not declare it.
    pub fn property(self) -> Property {
        Property {
            name: self.name().to_string(),
            label: self.label().to_string(),
            when: Vec::new(),
            kind: PropertyKind::Builtin(self),
            line: 0,
            col: 0,
        }
    }
}

/// The property called `name` among `declared`, else the built-in of that name.
pub fn find_property(declared: &[Property], name: &str) -> Option<Property> {
    declared
        .iter()
        .find(|p| p.name == name)
        .cloned()
        .or_else(|| {
            Builtin::ALL
                .iter()
                .find(|b| b.name() == name)
                .map(|b| b.property())
        })
}

/// The message of the engine's cut-off when every session left waits for the others.
const STUCK: &str = "no session can run";

/// A property's SQL failed: the lesson is wrong, not the interleaving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyError {
    pub property: String,
    pub message: String,
}

impl std::fmt::Display for PropertyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "property `{}`: {}", self.property, self.message)
    }
}

impl std::error::Error for PropertyError {}

impl Property {
    /// Whether the property says anything about this state: `at_end` only once the run
    /// is over, the others always.
    pub fn applies_now(&self, simulation: &Simulation) -> bool {
        !matches!(self.kind, PropertyKind::AtEnd { .. }) || simulation.is_finished()
    }

    /// Checks the property in the simulation's current state: `Ok(None)` when it holds
    /// (or says nothing yet), `Ok(Some(detail))` when it is broken, with what broke it.
    /// The SQL reads the newest data, uncommitted included, without locks or events
    /// ([`Simulation::query`]), so checking never changes what happens next.
    pub fn violation(&self, simulation: &mut Simulation) -> Result<Option<Detail>, PropertyError> {
        if !self.applies_now(simulation) {
            return Ok(None);
        }
        match &self.kind {
            PropertyKind::Always { sql, bound } | PropertyKind::AtEnd { sql, bound } => {
                let error = |message: String| PropertyError {
                    property: self.name.clone(),
                    message,
                };
                let rs = simulation.query(sql).map_err(|e| {
                    error(format!(
                        "query failed at {}:{}: {}",
                        e.line, e.col, e.message
                    ))
                })?;
                let value = match rs.rows.as_slice() {
                    [row] if row.len() == 1 => match &row[0] {
                        Value::Int(i) => *i as f64,
                        Value::Decimal(d) => *d,
                        Value::Null => 0.0,
                        other => {
                            return Err(error(format!(
                                "the query gives {}, not a number",
                                crate::value::value_text(other)
                            )))
                        }
                    },
                    _ => {
                        return Err(error(format!(
                            "the query gives {} rows; a property reads one row with one number",
                            rs.rows.len()
                        )))
                    }
                };
                Ok((!bound.holds(value)).then_some(Detail::Scalar {
                    value,
                    bound: *bound,
                }))
            }
            PropertyKind::Builtin(b) => Ok(builtin_violation(*b, simulation)),
        }
    }
}

fn builtin_violation(builtin: Builtin, simulation: &Simulation) -> Option<Detail> {
    let outcome = simulation.outcome();
    outcome.sessions.iter().find_map(|s| {
        s.errors.iter().find_map(|e| {
            let broken = match builtin {
                Builtin::NoErrors => !e.caught,
                Builtin::NoDeadlock => e.number == 1205 || e.message.starts_with(STUCK),
            };
            broken.then(|| Detail::SessionError {
                session: s.name.clone(),
                number: e.number,
                sqlstate: e.sqlstate.map(str::to_string),
                message: e.message.clone(),
            })
        })
    })
}
