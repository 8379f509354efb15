//! Lesson translations: `lessons/<lang>/<id>.md` holds the texts of `lessons/<id>.md` in
//! another language and nothing else; its SQL, toggles and checks are the original's.
//! [`Translation::parse`] reads one and refuses any drift from its original
//! (`translation/front.rs`); [`Lesson::translated`] is the original with the translated
//! texts, so a translated lesson runs exactly as the original does.

use crate::Lesson;

#[cfg(feature = "parse")]
mod front;

/// The languages lessons are translated into, as directory names under `lessons/`.
/// English is the originals' language and has no directory.
pub const TRANSLATION_LANGS: [&str; 2] = ["pl", "ja"];

/// The translated texts of one lesson, in the original's order (one entry per toggle,
/// check, anomaly rule, property and question of the original).
#[derive(Clone, Debug, PartialEq)]
pub struct Translation {
    /// The original's id.
    pub id: String,
    /// One of [`TRANSLATION_LANGS`].
    pub lang: String,
    pub title: String,
    pub summary: String,
    /// An exercise's goal; `None` for a plain lesson.
    pub goal: Option<String>,
    pub hints: Vec<String>,
    pub toggles: Vec<ToggleText>,
    pub checks: Vec<CheckText>,
    pub anomalies: Vec<AnomalyText>,
    /// Each property's label.
    pub properties: Vec<String>,
    pub questions: Vec<QuestionText>,
    /// The narrative (Markdown after the front matter). Empty in the compiled form,
    /// which carries it as HTML only ([`crate::CompiledTranslation`]).
    pub body: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToggleText {
    pub label: String,
    /// `None` when the original's toggle has no help.
    pub help: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CheckText {
    /// The original check's name, verbatim (it ties the two together).
    pub original: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AnomalyText {
    pub label: String,
    /// `None` keeps the original's verb (one the original left at its default).
    pub verb: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct QuestionText {
    pub ask: String,
    pub explain: String,
    /// The labels of the original's choices, in order.
    pub choices: Vec<String>,
}

impl Translation {
    /// The translated name of the original check `original`, or `original` itself when
    /// this translation does not name it.
    pub fn check_name<'a>(&'a self, original: &'a str) -> &'a str {
        self.checks
            .iter()
            .find(|c| c.original == original)
            .map_or(original, |c| c.name.as_str())
    }
}

impl Lesson {
    /// The lesson with a translation's texts: title, summary, goal and hints, toggle
    /// labels and help, check names, anomaly labels and verbs, property labels,
    /// questions' texts and the narrative. Everything that runs (SQL, toggle names and
    /// values, checks' kinds, seeds) is the original's, and positions still point into
    /// the original file, where that SQL is. `t` is one [`Translation::parse`] accepted
    /// against this lesson.
    pub fn translated(&self, t: &Translation) -> Lesson {
        let mut lesson = self.clone();
        lesson.title.clone_from(&t.title);
        lesson.summary.clone_from(&t.summary);
        if let Some(exercise) = &mut lesson.exercise {
            if let Some(goal) = &t.goal {
                exercise.goal.clone_from(goal);
            }
            if t.hints.len() == exercise.hints.len() {
                exercise.hints.clone_from(&t.hints);
            }
        }
        for (toggle, text) in lesson.toggles.iter_mut().zip(&t.toggles) {
            toggle.label.clone_from(&text.label);
            if text.help.is_some() {
                toggle.help.clone_from(&text.help);
            }
        }
        for (check, text) in lesson.checks.iter_mut().zip(&t.checks) {
            check.name.clone_from(&text.name);
        }
        for (rule, text) in lesson.anomalies.iter_mut().zip(&t.anomalies) {
            rule.label.clone_from(&text.label);
            if let Some(verb) = &text.verb {
                rule.verb.clone_from(verb);
            }
        }
        for (property, label) in lesson.properties.iter_mut().zip(&t.properties) {
            property.label.clone_from(label);
        }
        for (question, text) in lesson.questions.iter_mut().zip(&t.questions) {
            question.ask.clone_from(&text.ask);
            question.explain.clone_from(&text.explain);
            for (choice, label) in question.choices.iter_mut().zip(&text.choices) {
                choice.label.clone_from(label);
            }
        }
        lesson.body.clone_from(&t.body);
        lesson
    }
}
