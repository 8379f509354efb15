//! Toggles (a lesson's named choices), conditions on them, and the settings that pick
//! one value per toggle.

use std::fmt;

use crate::SettingsError;

/// A named choice shown to the learner. Names and values are a contract: links
/// (`#/embed/<lesson>?readpast=off`), tests and checks rely on them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toggle {
    pub name: String,
    pub label: String,
    /// At least two, distinct, in the order the player shows them.
    pub values: Vec<String>,
    /// Index into `values`.
    pub default: usize,
    pub help: Option<String>,
}

impl Toggle {
    pub fn default_value(&self) -> &str {
        &self.values[self.default]
    }

    pub(crate) fn value_index(&self, value: &str) -> Option<usize> {
        self.values.iter().position(|v| v == value)
    }

    #[cfg(feature = "parse")]
    pub(crate) fn values_list(&self) -> String {
        self.values.join(", ")
    }
}

/// `toggle` has one of `values` (a block's `when="workers=4"`, a check's `when`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub toggle: String,
    pub values: Vec<String>,
}

impl Condition {
    pub fn holds(&self, settings: &Settings) -> bool {
        settings
            .get(&self.toggle)
            .is_some_and(|v| self.values.iter().any(|x| x == v))
    }
}

pub(crate) fn all_hold(conditions: &[Condition], settings: &Settings) -> bool {
    conditions.iter().all(|c| c.holds(settings))
}

/// Toggle names: lower-case identifiers, so they read well in URLs and `{{name}}`.
#[cfg(feature = "parse")]
pub(crate) fn is_toggle_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Toggle values: short tokens that need no quoting in a block's info string, a URL
/// or a span (`3,3,2,2,1`, `read-committed`, `500`).
#[cfg(feature = "parse")]
pub(crate) fn is_toggle_value(value: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ','))
}

/// One value for every toggle of a lesson, in the lesson's toggle order. Made by
/// [`crate::Lesson::settings_default`] or [`crate::Lesson::settings_with`], so it
/// always fits the lesson it came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    pairs: Vec<(String, String)>,
}

impl Settings {
    pub fn get(&self, toggle: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == toggle)
            .map(|(_, v)| v.as_str())
    }

    /// (toggle, value) in the lesson's toggle order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    pub(crate) fn from_indices(toggles: &[Toggle], indices: &[usize]) -> Settings {
        Settings {
            pairs: toggles
                .iter()
                .zip(indices)
                .map(|(t, &i)| (t.name.clone(), t.values[i].clone()))
                .collect(),
        }
    }

    pub(crate) fn defaults(toggles: &[Toggle]) -> Settings {
        let indices: Vec<usize> = toggles.iter().map(|t| t.default).collect();
        Settings::from_indices(toggles, &indices)
    }

    /// Starts from the defaults and applies each `(toggle, value)` in turn.
    pub(crate) fn with<'a>(
        toggles: &[Toggle],
        choices: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Settings, SettingsError> {
        let mut indices: Vec<usize> = toggles.iter().map(|t| t.default).collect();
        for (name, value) in choices {
            let Some(ti) = toggles.iter().position(|t| t.name == name) else {
                return Err(SettingsError::UnknownToggle {
                    name: name.to_owned(),
                    known: toggles.iter().map(|t| t.name.clone()).collect(),
                });
            };
            let toggle = &toggles[ti];
            let Some(vi) = toggle.value_index(value) else {
                return Err(SettingsError::NotAValue {
                    name: name.to_owned(),
                    value: value.to_owned(),
                    values: toggle.values.clone(),
                });
            };
            indices[ti] = vi;
        }
        Ok(Settings::from_indices(toggles, &indices))
    }

    /// Whether these settings name exactly the lesson's toggles with valid values.
    pub(crate) fn fits(&self, toggles: &[Toggle]) -> bool {
        self.pairs.len() == toggles.len()
            && self
                .pairs
                .iter()
                .zip(toggles)
                .all(|((n, v), t)| *n == t.name && t.value_index(v).is_some())
    }
}

impl fmt::Display for Settings {
    /// `readpast=off ranks=3,1,1`; empty when the lesson has no toggles.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (n, v)) in self.pairs.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{n}={v}")?;
        }
        Ok(())
    }
}

/// Most settings combinations [`crate::Lesson::all_combinations`] returns. Each runs
/// a whole simulation, so a lesson whose toggles multiply past this is checked on a
/// sample that still tries every value at least once.
pub const COMBINATION_CAP: usize = 64;

/// Settings to run, and whether they are the whole product of the toggles' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combinations {
    /// The defaults come first.
    pub settings: Vec<Settings>,
    /// Size of the full product (saturating).
    pub total: u64,
    /// True when `settings` is a sample of fewer than `total` combinations.
    pub capped: bool,
}

pub(crate) fn combinations(toggles: &[Toggle], cap: usize) -> Combinations {
    let cap = cap.max(1);
    let total = toggles
        .iter()
        .fold(1u64, |acc, t| acc.saturating_mul(t.values.len() as u64));
    let defaults: Vec<usize> = toggles.iter().map(|t| t.default).collect();
    let mut picked: Vec<Vec<usize>> = vec![defaults.clone()];
    let add = |picked: &mut Vec<Vec<usize>>, indices: Vec<usize>| {
        if picked.len() < cap && !picked.contains(&indices) {
            picked.push(indices);
        }
    };
    // When capped, varying one toggle at a time from the defaults comes first, so that
    // every value is run at least once before the rest of the product fills the cap.
    if total > cap as u64 {
        for (ti, t) in toggles.iter().enumerate() {
            for vi in 0..t.values.len() {
                let mut indices = defaults.clone();
                indices[ti] = vi;
                add(&mut picked, indices);
            }
        }
    }
    // The product, each toggle's default first, the last toggle varying fastest.
    let mut odometer = vec![0usize; toggles.len()];
    'product: while picked.len() < cap {
        let indices: Vec<usize> = odometer
            .iter()
            .zip(toggles)
            .map(|(&k, t)| (t.default + k) % t.values.len())
            .collect();
        add(&mut picked, indices);
        for ti in (0..toggles.len()).rev() {
            odometer[ti] += 1;
            if odometer[ti] < toggles[ti].values.len() {
                continue 'product;
            }
            odometer[ti] = 0;
        }
        break;
    }
    let settings: Vec<Settings> = picked
        .iter()
        .map(|ix| Settings::from_indices(toggles, ix))
        .collect();
    let capped = (settings.len() as u64) < total;
    Combinations {
        settings,
        total,
        capped,
    }
}

/// Names the player's URLs use next to toggles (`#/lesson/x?readpast=off&t=1500`), and
/// the scheduler's (`#/lesson/x/schedule?...&schedule=u.0.1&steps=2`).
pub const RESERVED_TOGGLE_NAMES: [&str; 12] = [
    "t", "e", "seed", "view", "theme", "anomaly", "schedule", "steps", "why", "tab", "lang",
    "speed",
];
