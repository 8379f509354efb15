//! Predict, then run: the learner's answers to a lesson's questions (`[[questions]]`),
//! kept in `localStorage` under `lockstep.answers.<lesson id>`, and which question the
//! player asks before the run it is about. The stored text is a version line, then one
//! `<question name> <choice index | skip>` line per answer; anything else is dropped as
//! corrupt (the learner is simply asked again). Storage may be missing (a sandboxed
//! iframe, privacy settings): answers then last as long as the page. The learner can
//! turn the questions off (`lockstep.predict` = `off`: "Stop asking me" in a question, and the
//! switch at the top of the Lesson tab).

use std::collections::BTreeMap;

use lesson::{Lesson, Question, Settings};

/// Prefix of every key this module writes.
pub const KEY_PREFIX: &str = "lockstep.answers.";
const VERSION_LINE: &str = "lockstep-answers 1";

/// What the learner did with one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The index of the choice picked.
    Choice(usize),
    Skipped,
}

/// A lesson's answers by question name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answers(pub BTreeMap<String, Answer>);

impl Answers {
    pub fn encode(&self) -> String {
        let mut out = String::from(VERSION_LINE);
        for (name, answer) in &self.0 {
            out.push('\n');
            out.push_str(name);
            out.push(' ');
            match answer {
                Answer::Choice(i) => out.push_str(&i.to_string()),
                Answer::Skipped => out.push_str("skip"),
            }
        }
        out
    }

    /// Reads what [`Answers::encode`] wrote; `None` for anything else.
    pub fn decode(text: &str) -> Option<Answers> {
        let mut lines = text.lines();
        if lines.next()? != VERSION_LINE {
            return None;
        }
        let mut answers = BTreeMap::new();
        for line in lines {
            let (name, answer) = line.split_once(' ')?;
            if name.is_empty() || name.contains(char::is_whitespace) {
                return None;
            }
            let answer = match answer {
                "skip" => Answer::Skipped,
                n => Answer::Choice(n.parse().ok()?),
            };
            answers.insert(name.to_string(), answer);
        }
        Some(Answers(answers))
    }

    pub fn get(&self, question: &str) -> Option<Answer> {
        self.0.get(question).copied()
    }

    pub fn with(&self, question: &str, answer: Option<Answer>) -> Answers {
        let mut next = self.clone();
        match answer {
            Some(a) => next.0.insert(question.to_string(), a),
            None => next.0.remove(question),
        };
        next
    }
}

/// The questions asked before a run with `settings`, in the lesson's order.
pub fn questions_for<'a>(
    lesson: &'a Lesson,
    settings: &'a Settings,
) -> impl Iterator<Item = &'a Question> + 'a {
    lesson.questions.iter().filter(move |q| q.applies(settings))
}

/// The question to ask before the run with `settings` is shown: the first one about it
/// the learner has neither answered nor skipped.
pub fn asking<'a>(
    lesson: &'a Lesson,
    settings: &'a Settings,
    answers: &Answers,
) -> Option<&'a Question> {
    questions_for(lesson, settings).find(|q| answers.get(&q.name).is_none())
}

/// `localStorage` key of the learner's choice to be asked at all (`off` turns it off).
pub const SWITCH_KEY: &str = "lockstep.predict";

/// Whether the player asks (on unless the learner turned it off).
pub fn enabled() -> bool {
    storage()
        .and_then(|s| s.get_item(SWITCH_KEY).ok().flatten())
        .is_none_or(|v| v != "off")
}

pub fn set_enabled(on: bool) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(SWITCH_KEY, if on { "on" } else { "off" });
    }
}

pub fn key(lesson: &str) -> String {
    format!("{KEY_PREFIX}{lesson}")
}

fn storage() -> Option<web_sys::Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// The saved answers of `lesson` (none when storage is missing or the value is corrupt,
/// which is then removed).
pub fn load(lesson: &str) -> Answers {
    let Some(storage) = storage() else {
        return Answers::default();
    };
    let Ok(Some(text)) = storage.get_item(&key(lesson)) else {
        return Answers::default();
    };
    Answers::decode(&text).unwrap_or_else(|| {
        let _ = storage.remove_item(&key(lesson));
        Answers::default()
    })
}

pub fn save(lesson: &str, answers: &Answers) {
    if let Some(storage) = storage() {
        let _ = if answers.0.is_empty() {
            storage.remove_item(&key(lesson))
        } else {
            storage.set_item(&key(lesson), &answers.encode())
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    #[test]
    fn answers_round_trip_and_corrupt_values_are_refused() {
        let answers = Answers::default()
            .with("b-wait-readpast-off", Some(Answer::Choice(1)))
            .with("b-wait-readpast-on", Some(Answer::Skipped));
        let text = answers.encode();
        assert_eq!(
            text,
            "lockstep-answers 1\nb-wait-readpast-off 1\nb-wait-readpast-on skip"
        );
        assert_eq!(Answers::decode(&text), Some(answers.clone()));
        assert_eq!(Answers::decode("lockstep-answers 1\nx maybe"), None);
        assert_eq!(Answers::decode("something else"), None);
        assert_eq!(
            answers.with("b-wait-readpast-off", None).0.len(),
            1,
            "clearing an answer asks again"
        );
    }

    #[test]
    fn the_question_about_a_setting_is_asked_until_answered_or_skipped() {
        let catalog = catalog();
        let lesson = catalog.lesson("queue-wait-or-skip").expect("lesson");
        let off = lesson.settings_with([("readpast", "off")]).unwrap();
        let on = lesson.settings_default();
        let none = Answers::default();
        assert_eq!(
            asking(lesson, &off, &none).map(|q| q.name.as_str()),
            Some("b-wait-readpast-off")
        );
        assert_eq!(
            asking(lesson, &on, &none).map(|q| q.name.as_str()),
            Some("b-wait-readpast-on")
        );
        let answered = none.with("b-wait-readpast-off", Some(Answer::Choice(1)));
        assert_eq!(asking(lesson, &off, &answered), None);
        let skipped = none.with("b-wait-readpast-off", Some(Answer::Skipped));
        assert_eq!(asking(lesson, &off, &skipped), None);
        assert!(asking(lesson, &on, &answered).is_some());
    }
}
