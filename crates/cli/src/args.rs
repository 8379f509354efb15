//! Command-line arguments (clap derive). The help text is part of the contract.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "lockstep",
    version,
    about = "Run and validate Lockstep lessons headless",
    long_about = "Run and validate Lockstep lessons headless.\n\n\
        A lesson is a Markdown file with TOML front matter, fenced `sql` blocks and checks; \
        lessons/README.md documents the format.",
    after_help = "Exit codes: 0 all is well, 1 a check failed, 2 bad input \
        (unreadable path, lesson errors, bad --set, SQL the engine refuses)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one lesson to the end: print its trace, outcome and checks (or JSON).
    Run(RunArgs),
    /// Validate lessons: each parses, every toggle combination applies and runs, every check passes.
    Check(CheckArgs),
    /// List exercises for a facilitator: goal, goals checked, hints, editable blocks.
    Exercises(ExercisesArgs),
    /// Search every interleaving of a lesson's sessions for a state that breaks a property.
    Explore(ExploreArgs),
    /// A lesson's outcome under every combination of its toggles, over several seeds: one
    /// row per combination, one column per figure its checks and properties name.
    Matrix(MatrixArgs),
    /// Write each lesson as static HTML (OUT/<id>.html), which the app shows before its
    /// wasm has loaded.
    Prerender(PrerenderArgs),
}

#[derive(Debug, Args)]
#[command(after_help = RUN_AFTER_HELP)]
pub struct RunArgs {
    /// The lesson file (lessons/<id>.md).
    pub lesson: PathBuf,
    /// Set a toggle, e.g. --set readpast=off (repeatable, one value per toggle; others keep their defaults).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Seed of the run (default: the lesson's `seed`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// SQL to run against the final state after the run (repeatable, in order).
    #[arg(long = "query", value_name = "SQL")]
    pub query: Vec<String>,
    /// Print one JSON object instead of text (fields below).
    #[arg(long)]
    pub json: bool,
    /// Also write the timeline as one self-contained SVG file (lanes, waits, events,
    /// outcome, checks); stdout is unchanged.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Run an exercise with its solution in place of the editable blocks.
    #[arg(long)]
    pub solution: bool,
    /// Replay a recorded schedule (the `schedule` field of --json): the session picked at
    /// each choice point, e.g. `0.1~3.0`; `u.` first for an untimed run.
    #[arg(long, value_name = "SCHEDULE")]
    pub schedule: Option<String>,
    /// The language of the text output and the SVG: the lesson's texts (title, check
    /// names) from the translation lessons/<LANG>/<id>.md next to the lesson, English
    /// when there is none (a note says so), and the output's own words and the checks'
    /// details. Figures are written as in English; trace lines, SQL, table names and
    /// error messages stay as the engine writes them. JSON is the same in every language.
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = crate::lang::LANGS)]
    pub lang: String,
    /// Untimed: every statement boundary is a choice point and WAITFOR only yields
    /// (choices are seeded random unless --schedule gives them).
    #[arg(long)]
    pub untimed: bool,
    /// Print every event of a trace longer than 100 000 events (a loop that ran until
    /// the engine's budget stopped it); without it, the text shows the first 50 000 and
    /// the last 1 000 and says how many it left out. --json always has every one.
    #[arg(long)]
    pub full_trace: bool,
}

#[derive(Debug, Args)]
#[command(after_help = CHECK_AFTER_HELP)]
pub struct CheckArgs {
    /// Lesson files, or directories searched recursively for *.md (README.md excepted).
    #[arg(required = true, value_name = "FILE_OR_DIR")]
    pub paths: Vec<PathBuf>,
    /// Run every combination with this seed instead of each lesson's `seed`.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Name checks in this language in messages, from each lesson's translation (the
    /// runs are the same: a translation shares its original's SQL).
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = crate::lang::LANGS)]
    pub lang: String,
}

#[derive(Debug, Args)]
#[command(after_help = EXPLORE_AFTER_HELP)]
pub struct ExploreArgs {
    /// The lesson file (lessons/<id>.md).
    pub lesson: PathBuf,
    /// Set a toggle, e.g. --set tasks=3 (repeatable, one value per toggle; others keep their defaults).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Seed of the setup and of statement costs (default: the lesson's `seed`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The property to search for a violation of (default: the first the lesson declares
    /// for these settings, else no-errors).
    #[arg(long, value_name = "NAME")]
    pub property: Option<String>,
    /// Steps of one interleaving the depth-first search follows; longer ones are cut
    /// there and the answer is not exhaustive (random walks are not cut: they run to
    /// the end of the run).
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub max_steps: usize,
    /// Distinct states the depth-first search may visit before it turns to random walks.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub max_states: usize,
    /// Random walks from the start to the end of the run, whatever --max-steps says,
    /// once the state budget is spent.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub walks: u64,
    /// Which reductions the search uses: all (sleep sets and visited-state pruning),
    /// visited (visited-state pruning only), none (every path of the tree).
    #[arg(long, value_name = "WHICH", default_value = "all", value_parser = ["all", "visited", "none"])]
    pub reduction: String,
    /// Print one JSON object instead of text (fields below).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[command(after_help = MATRIX_AFTER_HELP)]
pub struct MatrixArgs {
    /// The lesson file (lessons/<id>.md).
    pub lesson: PathBuf,
    /// How many seeds each combination runs (default: an exercise's own seeds, else 3:
    /// the lesson's `seed` and the two after it).
    #[arg(long, value_name = "N")]
    pub seeds: Option<usize>,
    /// Print one JSON object instead of text (fields below).
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print a Markdown table (with a list of what each column is), ready to paste into a
    /// post.
    #[arg(long)]
    pub markdown: bool,
}

#[derive(Debug, Args)]
pub struct ExercisesArgs {
    /// Lesson files, or directories searched recursively for *.md (README.md and
    /// pending/ excepted); lessons that are not exercises are left out.
    #[arg(required = true, value_name = "FILE_OR_DIR")]
    pub paths: Vec<PathBuf>,
    /// Print Markdown (a printable handout) instead of plain text.
    #[arg(long)]
    pub markdown: bool,
    /// Include each exercise's solution SQL (for facilitators, not learners).
    #[arg(long)]
    pub solutions: bool,
}

#[derive(Debug, Args)]
pub struct PrerenderArgs {
    /// Lesson files, or directories searched recursively for *.md (README.md and
    /// pending/ excepted).
    #[arg(required = true, value_name = "FILE_OR_DIR")]
    pub paths: Vec<PathBuf>,
    /// The directory to write into (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

const RUN_AFTER_HELP: &str = "\
Text output: a heading (lesson id, seed, settings), the lesson's title (in --lang),
the trace, one line per event (`<virtual ms> ms  <event>`), then each
session's outcome, the check results (a passing check that describes a bug ends in
`[bug reproduced]`), the questions that apply (`<name>: <the right choice's label>
(<the figure>)`), the anomalies (`<virtual ms> ms  event <index>  <kind>  <session>:
<label> (<evidence>)`, one line each) and the --query results.

JSON output (--json), one object; these fields are a contract:
  lesson     the lesson's id
  seed       the seed of the run
  settings   every toggle's value: {\"<toggle>\": \"<value>\", ...}
  end_ms     virtual time when the last session finished (ms, µs precision)
  sessions   [{name, wait_ms, statements, errors, results, logical_reads,
              elapsed_ms, delayed_ms}], where
               wait_ms     total time blocked on locks (ms, µs precision)
               errors      [{number, message, caught[, sqlstate]}]; caught: a
                           TRY block (or an EXCEPTION clause) handled it;
                           sqlstate: PostgreSQL lessons only (\"55P03\");
                           number 0: an error without a number (SQL that is
                           not simulated, a Teradata rule whose number our
                           sources do not give; every PostgreSQL error, whose
                           sqlstate is its number), shown as \"(no number)\"
               logical_reads  pages read (PostgreSQL lessons: shared buffers
                           hit, and so named in the text and SVG output)
               elapsed_ms  from connecting to finishing the script
               delayed_ms  time consumes waited for a row in the delayed state
                           (Teradata)
               results  [{columns: [string], rows: [[value]]}]; a value
                           is a number, a string, null, or (a PostgreSQL
                           boolean, printed t and f in the text) true/false
  checks     [{name, passed, detail, bug}] for the checks that apply to these
             settings; bug: the check describes a bug, so passed means it was
             reproduced
  anomalies  [{index, at_ms, kind, label, sessions, rows, why}], the moments the
             lesson is about, in trace order, where
               index     the trace event it is marked at (0 = the first event)
               at_ms     its virtual time (ms, µs precision)
               kind      duplicate | unmatched | lost | kept (the lesson's
                         [[anomalies]]),
                         deadlock-victim | error (an error no TRY block caught)
               label     what it means, in a few words
               sessions  the sessions it concerns, the one it happened to last
               rows      [{table, key}] the rows it concerns
               why       one line: who, what and the evidence in brief
  queries    [{sql, columns, rows}], one per --query, run against the final state
  questions  [{name, right, detail}] for the lesson's questions that apply to these
             settings: right, the labels of the choices the run makes right (one in
             a sound lesson; `check` says when not); detail, the figure behind it
  schedule   the choices the run made at its choice points (sessions enabled at the
             same instant; in an untimed run every statement boundary), as text:
             session numbers (0 = first) joined by `.`, a repeat as `N~COUNT`, `-` for
             none, `u.` first when untimed. `--schedule` with it replays the run's trace
             exactly; a pick that is not enabled is an error naming the choice, so is
             a text with more choices than the run reaches, and choice points past
             the end of the text are seeded random
Values in rows are JSON null, numbers or strings (datetimes as their type prints
them: \"YYYY-MM-DD hh:mm:ss.fff\" for a datetime2(3), as many digits as the type
has, a date as \"YYYY-MM-DD\").

SVG output (--svg FILE): the lesson's title and settings, a time axis in ms, one lane
per session (running / waiting on <resource> for <holder> / sleeping / a delayed
Teradata consume, coloured and labelled in text), marks for errors (with their
number), READPAST skips, deadlocks, result sets, commits, rollbacks and external
calls, a legend, each session's outcome (wait ms, errors, logical reads, statements,
first result row) and the checks. No external fonts, scripts or links: it opens on
its own in a browser. Stretches too short to see at the picture's scale are merged
(the legend says how), so a long run stays a small file.

Exit codes: 0 every check passed, 1 a check failed, 2 bad input (unreadable file,
lesson errors, bad --set, bad --schedule or a pick it makes that is not enabled, SQL
the engine refuses, a failing --query).";

const CHECK_AFTER_HELP: &str = "\
Problems print as `file:line:col: message`; a failing check prints its detail with the
settings and seed that failed. A lesson whose toggles multiply past 64 combinations is
checked on a sample that tries every value at least once (a note says so). Directories
named pending/ are skipped with a note (lessons waiting for an engine feature).

An exercise (kind = \"exercise\") is run on its seeds twice per combination: as shipped,
where some goal must fail on some seed (else there is nothing to fix), and with its
solution blocks, where every goal must hold on every seed. --seed replaces its seeds.
The last line sums up.

Translations: a file in a language's directory (lessons/pl/<id>.md, lessons/ja/<id>.md)
is a translation of lessons/<id>.md, checked against it without running anything (it
shares the original's SQL): the same toggles (names, values, order), checks (their
`original` names, count, order), property and question names, as many anomalies and
hints, only the fields of the format, and every `sql` block byte for byte. A drifted
translation is an error at its `file:line:col` saying what drifted. For a directory
with translations, a line per language lists the lessons not yet translated
(`untranslated (ja): send-double-click, ...`), for information.

Exit codes: 0 all is well, 1 a check failed, 2 bad input (unreadable paths, lesson or
translation errors, SQL the engine refuses).";

const EXPLORE_AFTER_HELP: &str = "\
The search runs the sessions untimed (every statement boundary is a choice, WAITFOR
only yields, as `run --untimed`), depth first in rounds 16 steps deep, then twice as
deep while a round finds nothing (up to --max-steps), skipping states it has seen and
orders of independent steps it has tried; when --max-states runs out it makes random
walks.
A property is SQL over the state checked after every step (`always`) or at the end of
the run (`at_end`), or a built-in: no-errors, no-deadlock (lessons/README.md).

Text output: the verdict, the counterexample step by step (with the two steps whose
order decides it, `why:`) and the `lockstep run` command that replays it, and the
search's figures.

JSON output (--json), one object; these fields are a contract:
  lesson        the lesson's id
  seed          the seed of the setup and of statement costs
  settings      every toggle's value: {\"<toggle>\": \"<value>\", ...}
  property      the property's name; label: what it promises
  verdict       \"holds\" (no interleaving explored breaks it), \"violated\", or
                \"unchecked\" (an `at_end` property, and no interleaving explored
                reached the end of the run: each was cut at --max-steps)
  exhaustive    true when every interleaving within the bounds was explored
  states        distinct states reached (tree nodes with --reduction none)
  transitions   steps the search ran
  schedules     interleavings to the end of the run the depth-first search covered
                (with sleep sets, orders of independent steps count once)
  max_depth     the longest interleaving followed, in steps (a random walk's too,
                which may pass max_steps: walks run to the end of the run)
  walks         random walks made
  bounds        {max_steps, max_states}; reduction: \"all\", \"visited\" or \"none\"
  counterexample  (when violated) {schedule, steps, switches, detail, conflict}, where
                schedule  the choices, as `run --schedule` replays them (`u.` first)
                steps     one line per step: who, what it did, the statement
                switches  context switches between sessions
                detail    what the property saw: \"got 1 (expected 0)\"
                conflict  (when a session acted on a stale read) {read, write, summary}:
                          indices into steps (from 0) of a session's read of a row and
                          of another session's later write of it, the earliest such
                          write; summary says it in a sentence

Exit codes: 0 the property holds, 1 it is violated or unchecked, 2 bad input
(unreadable file, lesson errors, bad --set, an unknown --property, SQL the engine or a
property refuses).";

const MATRIX_AFTER_HELP: &str = "\
Every combination of every toggle's values runs on each seed (the first toggle varies
slowest, values in the lesson's order). Columns, each read from every run whatever the
checks' `when`: each figure a check names (`B.wait_ms`; without a session, summed over
all sessions: `errors`), each check's and property's SQL on the final state (named by
the property, else `q1`, `q2`, ...), each session result a check reads (`B.result1`),
`deadlock_victims` for the no-deadlock property, and always `error_numbers`, the errors
no TRY block caught by session and number (`A 650, B 650`, or `none`). A cell is the
value every seed gave, `min–max` when the seeds' numbers differ, else the seeds' values
joined by ` / `; `—` when there is nothing to read (the session did not run, the SQL
failed on this combination). The last column counts check verdicts that passed over
every seed (a reproduced bug passes).

Text output: a heading with the seeds, the table, then what each column is.
Markdown output (--markdown): the same as a Markdown table and a list.

JSON output (--json), one object; these fields are a contract:
  lesson    the lesson's id
  seeds     the seeds each combination ran, in order
  toggles   the toggles' names, in the lesson's order
  columns   [{key, label, kind, session, figure, sql, result}], where
              key     the column's name in headers and in each row's cells
              label   the check's name or the property's label it comes from
              kind    figure | query | result | error_numbers | deadlock_victims
              session the session a figure or result is of (null: all sessions)
              figure  the figure's name (wait_ms, error_number, ...) for kind figure
              sql     the SQL for kind query; result: the result set's number (from 1)
  rows      [{settings, cells, checks_passed, checks_total}], one per combination:
              settings       {\"<toggle>\": \"<value>\", ...}
              cells          {\"<key>\": {text, min, max, values}, ...}, where
                               text    the cell as the table shows it
                               min, max  the smallest and largest value when every
                                       seed gave a number, else null
                               values  one per seed: a number, a string, or null
                                       (nothing to read)
              checks_passed  check verdicts that passed over every seed
              checks_total   check verdicts over every seed

Exit codes: 0 the matrix was made (failing checks are in its last column), 2 bad input
(unreadable file, lesson errors, --seeds 0, SQL the engine refuses).";
