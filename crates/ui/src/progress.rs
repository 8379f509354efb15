//! A learner's progress on an exercise, kept in the browser's `localStorage` under
//! `lockstep.exercise.<id>`: whether it was solved, which goals the last Check met, how
//! many hints are shown, and the last SQL typed into each editable block. The stored
//! text is a small line format (a version line, then `solved`, `hints <n>`, one `goal
//! met|unmet <name>` line per goal and one `sql <block> <text>` line per block, names and
//! text percent-escaped), so a value that is not exactly that is recognised as corrupt:
//! the page then drops it and says so, and never trusts half of it. Versions 1 (no goal
//! lines) and 2 (no hints line) are still read.
//!
//! Encoding and decoding are pure (tested natively); [`load`], [`peek`], [`save`] and
//! [`clear`] are the browser edge. Storage may be missing (a sandboxed iframe, privacy
//! settings): then progress is simply not kept.

use web_sys::Storage;

/// Prefix of every key this module writes.
pub const KEY_PREFIX: &str = "lockstep.exercise.";
const VERSION_LINE: &str = "lockstep-progress 3";
/// Before the hints shown were kept.
const VERSION_2_LINE: &str = "lockstep-progress 2";
/// Before goal results were kept.
const VERSION_1_LINE: &str = "lockstep-progress 1";

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Check once found every goal met on every seed.
    pub solved: bool,
    /// Each goal's result at the last Check (name, met), in the lesson's order; empty
    /// when the last Check judged none (or there was none).
    pub goals: Vec<(String, bool)>,
    /// Hints shown, so a reload in a workshop does not hide what the learner has read.
    pub hints: usize,
    /// The learner's last SQL per editable block id, in block order.
    pub sql: Vec<(String, String)>,
}

/// A stored value that is not progress in this format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corrupt;

impl Progress {
    /// Nothing worth keeping: not solved, no goal judged, no hint shown and no SQL of
    /// the learner's own.
    pub fn is_empty(&self) -> bool {
        !self.solved && self.goals.is_empty() && self.hints == 0 && self.sql.is_empty()
    }

    /// Goals met at the last Check, of those judged.
    pub fn goals_met(&self) -> (usize, usize) {
        let met = self.goals.iter().filter(|(_, met)| *met).count();
        (met, self.goals.len())
    }

    pub fn encode(&self) -> String {
        let mut out = String::from(VERSION_LINE);
        out.push('\n');
        if self.solved {
            out.push_str("solved\n");
        }
        if self.hints > 0 {
            out.push_str(&format!("hints {}\n", self.hints));
        }
        for (goal, met) in &self.goals {
            out.push_str(if *met { "goal met " } else { "goal unmet " });
            out.push_str(&escape(goal));
            out.push('\n');
        }
        for (block, sql) in &self.sql {
            out.push_str("sql ");
            out.push_str(&escape(block));
            out.push(' ');
            out.push_str(&escape(sql));
            out.push('\n');
        }
        out
    }

    pub fn decode(text: &str) -> Result<Progress, Corrupt> {
        let mut lines = text.split('\n');
        let version = match lines.next() {
            Some(VERSION_LINE) => 3,
            Some(VERSION_2_LINE) => 2,
            Some(VERSION_1_LINE) => 1,
            _ => return Err(Corrupt),
        };
        let mut hints_read = false;
        let mut progress = Progress::default();
        for line in lines {
            match line.split(' ').collect::<Vec<_>>().as_slice() {
                [""] => {}
                ["solved"] => progress.solved = true,
                ["hints", n] if version >= 3 && !hints_read => {
                    hints_read = true;
                    progress.hints = n.parse().ok().filter(|n| *n > 0).ok_or(Corrupt)?;
                    if n.starts_with('+') || n.starts_with('0') {
                        return Err(Corrupt);
                    }
                }
                ["goal", result @ ("met" | "unmet"), goal] if version >= 2 => {
                    let goal = unescape(goal)?;
                    if goal.is_empty() || progress.goals.iter().any(|(g, _)| *g == goal) {
                        return Err(Corrupt);
                    }
                    progress.goals.push((goal, *result == "met"));
                }
                ["sql", block, sql] => {
                    let block = unescape(block)?;
                    if block.is_empty() || progress.sql.iter().any(|(b, _)| *b == block) {
                        return Err(Corrupt);
                    }
                    progress.sql.push((block, unescape(sql)?));
                }
                _ => return Err(Corrupt),
            }
        }
        Ok(progress)
    }

    /// The saved SQL for `block`, if any.
    pub fn sql_for(&self, block: &str) -> Option<&str> {
        self.sql
            .iter()
            .find(|(b, _)| b == block)
            .map(|(_, s)| s.as_str())
    }
}

/// Escapes `%`, spaces, control characters and DEL as `%XX`, so one value is one word
/// of one line.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '%' || c == ' ' || c.is_ascii_control() {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape(text: &str) -> Result<String, Corrupt> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or(Corrupt)?;
                let hex = std::str::from_utf8(hex).map_err(|_| Corrupt)?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| Corrupt)?);
                i += 3;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| Corrupt)
}

pub fn key(exercise: &str) -> String {
    format!("{KEY_PREFIX}{exercise}")
}

fn storage() -> Option<Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// The saved progress of `exercise`: `Ok(None)` when nothing is saved or storage is
/// unavailable; `Err(Corrupt)` when the value could not be read (it is removed, so the
/// notice shows once).
pub fn load(exercise: &str) -> Result<Option<Progress>, Corrupt> {
    let Some(storage) = storage() else {
        return Ok(None);
    };
    let Ok(Some(text)) = storage.get_item(&key(exercise)) else {
        return Ok(None);
    };
    match Progress::decode(&text) {
        Ok(progress) => Ok(Some(progress)),
        Err(corrupt) => {
            let _ = storage.remove_item(&key(exercise));
            Err(corrupt)
        }
    }
}

/// The saved progress of `exercise` for a summary (the lesson list): nothing when it is
/// missing or does not decode. Unlike [`load`] it leaves a corrupt value in place, so
/// the exercise's own page can still say it was reset.
pub fn peek(exercise: &str) -> Option<Progress> {
    let text = storage()?.get_item(&key(exercise)).ok()??;
    Progress::decode(&text).ok()
}

/// Saves `progress` (removes the key when there is nothing to keep). Quota and privacy
/// errors only lose persistence.
pub fn save(exercise: &str, progress: &Progress) {
    if let Some(storage) = storage() {
        let _ = if progress.is_empty() {
            storage.remove_item(&key(exercise))
        } else {
            storage.set_item(&key(exercise), &progress.encode())
        };
    }
}

pub fn clear(exercise: &str) {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(&key(exercise));
    }
}

/// Removes the saved progress of every exercise (a shared workshop machine); returns
/// how many were removed.
pub fn clear_all() -> usize {
    let Some(storage) = storage() else {
        return 0;
    };
    let n = storage.length().unwrap_or(0);
    let keys: Vec<String> = (0..n)
        .filter_map(|i| storage.key(i).ok().flatten())
        .filter(|k| k.starts_with(KEY_PREFIX))
        .collect();
    for k in &keys {
        let _ = storage.remove_item(k);
    }
    keys.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_any_text() {
        let progress = Progress {
            solved: true,
            goals: vec![
                ("B gets its task at once (waits at most 1 ms)".into(), true),
                ("No errors %20".into(), false),
            ],
            hints: 2,
            sql: vec![
                (
                    "next_task".into(),
                    "CREATE PROC p\r\n AS\tSELECT '100%' -- é ✓\n%41".into(),
                ),
                ("B".into(), String::new()),
            ],
        };
        let text = progress.encode();
        assert_eq!(text.lines().count(), 7, "{text}");
        assert!(
            text.starts_with("lockstep-progress 3\nsolved\nhints 2\ngoal met B%20gets%20"),
            "{text}"
        );
        assert_eq!(Progress::decode(&text), Ok(progress));
        assert_eq!(
            Progress::decode(&Progress::default().encode()),
            Ok(Progress::default())
        );
    }

    #[test]
    fn anything_else_is_corrupt() {
        for text in [
            "",
            "garbage",
            "{\"solved\":true}",
            "lockstep-progress 4\nsolved\n",
            // The hints line came with version 3, once, a count from 1.
            "lockstep-progress 2\nhints 1\n",
            "lockstep-progress 3\nhints 1\nhints 2\n",
            "lockstep-progress 3\nhints 0\n",
            "lockstep-progress 3\nhints 01\n",
            "lockstep-progress 3\nhints +1\n",
            "lockstep-progress 3\nhints -1\n",
            "lockstep-progress 3\nhints\n",
            "lockstep-progress 1\nsolved yes\n",
            // Goal lines came with version 2.
            "lockstep-progress 1\ngoal met a\n",
            "lockstep-progress 2\ngoal maybe a\n",
            "lockstep-progress 2\ngoal met\n",
            "lockstep-progress 2\ngoal met a b\n",
            "lockstep-progress 2\ngoal met a\ngoal unmet a\n",
            "lockstep-progress 2\ngoal met %G1\n",
            "lockstep-progress 1\nsql a\n",
            "lockstep-progress 1\nsql a b c\n",
            "lockstep-progress 1\nsql a %4\n",
            "lockstep-progress 1\nsql a %ZZ\n",
            "lockstep-progress 1\nsql a %FF\n",
            "lockstep-progress 1\nsql a x\nsql a y\n",
            "lockstep-progress 1\nsql  x\n",
        ] {
            assert_eq!(Progress::decode(text), Err(Corrupt), "{text:?}");
        }
    }

    /// What an earlier release saved is still read, and written back as version 3.
    #[test]
    fn reads_version_1() {
        let old = "lockstep-progress 1\nsolved\nsql next_task SELECT%201%0A\n";
        let progress = Progress::decode(old).unwrap();
        assert_eq!(
            progress,
            Progress {
                solved: true,
                goals: Vec::new(),
                hints: 0,
                sql: vec![("next_task".into(), "SELECT 1\n".into())],
            }
        );
        assert_eq!(
            progress.encode(),
            "lockstep-progress 3\nsolved\nsql next_task SELECT%201%0A\n"
        );
        let v2 = "lockstep-progress 2\ngoal met a\n";
        assert_eq!(
            Progress::decode(v2).unwrap().goals,
            vec![("a".into(), true)]
        );
    }

    #[test]
    fn counts_goals_met() {
        let progress = Progress {
            goals: vec![("a".into(), true), ("b".into(), false), ("c".into(), true)],
            ..Progress::default()
        };
        assert_eq!(progress.goals_met(), (2, 3));
        assert!(!progress.is_empty(), "goal results are worth keeping");
        assert_eq!(Progress::default().goals_met(), (0, 0));
        let hints = Progress {
            hints: 1,
            ..Progress::default()
        };
        assert!(!hints.is_empty(), "hints shown are worth keeping");
    }

    #[test]
    fn finds_sql_by_block() {
        let progress = Progress {
            sql: vec![("worker".into(), "SELECT 1".into())],
            ..Progress::default()
        };
        assert_eq!(progress.sql_for("worker"), Some("SELECT 1"));
        assert_eq!(progress.sql_for("other"), None);
        assert!(!progress.is_empty());
        assert!(Progress::default().is_empty());
        assert_eq!(
            key("exercise-skip-locked"),
            "lockstep.exercise.exercise-skip-locked"
        );
    }
}
