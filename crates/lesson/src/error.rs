//! The one error type of the crate: a problem located in a lesson file.

use std::fmt;

/// A problem in a lesson file, shown as `file:line:col: message`.
/// `line` and `col` are 1-based; `col` counts characters, not bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for LessonError {}

/// A `--set`-style choice that does not fit the lesson's toggles (not tied to a file
/// position). Data, so the interface can word it in its language (`i18n::settings_error`);
/// `Display` is the English the CLI prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// No toggle is called `name`; `known` are the lesson's toggles, in order (none when
    /// the lesson has no toggles).
    UnknownToggle { name: String, known: Vec<String> },
    /// `value` is not one of the values of toggle `name` (`values`, in order).
    NotAValue {
        name: String,
        value: String,
        values: Vec<String>,
    },
}

impl SettingsError {
    /// A toggle given with no value at all (`readpast=`).
    pub fn empty_value(&self) -> bool {
        matches!(self, SettingsError::NotAValue { value, .. } if value.is_empty())
    }
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::UnknownToggle { name, known } if known.is_empty() => {
                write!(f, "unknown toggle `{name}`: this lesson has no toggles")
            }
            SettingsError::UnknownToggle { name, known } => {
                write!(f, "unknown toggle `{name}` (toggles: {})", known.join(", "))
            }
            SettingsError::NotAValue { name, values, .. } if self.empty_value() => write!(
                f,
                "toggle `{name}` needs a value (values: {})",
                values.join(", ")
            ),
            SettingsError::NotAValue {
                name,
                value,
                values,
            } => write!(
                f,
                "`{value}` is not a value of toggle `{name}` (values: {})",
                values.join(", ")
            ),
        }
    }
}

impl std::error::Error for SettingsError {}
