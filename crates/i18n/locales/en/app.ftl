# The site: header, lesson list, pages that are not a lesson.

tagline = Watch database job queues and locks behave, one step at a time.
language = Language
skip-to-content = Skip to content
# The switch's accessible name starts with its visible word, then says what a press does.
theme-label-light = Light theme: switch to the dark theme
theme-label-dark = Dark theme: switch to the light theme
theme-to-light = Switch to the light theme
theme-to-dark = Switch to the dark theme
theme-dark = Dark
theme-light = Light
facilitator-link = For workshop facilitators: every exercise with its goals and hints, printable

lessons-heading = Lessons
lessons-none = No lessons yet
lesson-exercise-chip = Exercise
lesson-start-here = Start here
lesson-untranslated = Not translated yet, shown in English.
lesson-covers = Covers
lesson-covers-label = Scenarios covered: { $list }
lesson-covers-legend = Each lesson covers scenarios of the three articles it comes from, by their IDs: Q, a SQL Server job queue with READPAST; T, Teradata queue tables and SELECT AND CONSUME; I, idempotent sends with sp_getapplock and a filtered unique index. The PostgreSQL lessons play the same scenarios on PostgreSQL.
lesson-toggles = Toggles: { $list }
card-solved = ✓ Solved
card-goals = { $met } of { $judged } goals met at your last Check
card-started = Started: your SQL is saved

not-found-title = Page not found
not-found-before = Nothing lives at{" "}
not-found-after = .
no-lesson-title = No such lesson
no-lesson-before = There is no lesson{" "}
no-lesson-after = . The lessons are:
embed-no-lesson-after = . Check the address in the page's iframe.
embed-no-id = This widget names no lesson: its address should end in #/embed/ and a lesson's id, as in #/embed/queue-wait-or-skip. Check the address in the page's iframe.
embed-did-you-mean = Did you mean
embed-all-lessons = All lessons (opens a new tab)
no-exercise-title = No such exercise
no-exercise-before = There is no exercise{" "}
no-exercise-after = . The exercises are:
back-to-lessons = Back to the lessons
simulating = Simulating…
working = Working…

# Counts, for sentences that need one.
rows = { $count ->
    [one] { $count } row
   *[other] { $count } rows
}

# The facilitator's page.
facilitator-title = Workshop exercises
facilitator-intro = { $count } exercises. Each is checked on several seeds: a fix that works only when the race happens to go well does not count.
facilitator-progress = Learners' progress stays in their own browser.
facilitator-print = Print this page
facilitator-reset = Reset all exercise progress in this browser
facilitator-reset-title = Forget solved exercises and saved SQL in this browser (for a shared workshop machine)
facilitator-reset-confirm = Forget what { $count ->
    [one] { $count } exercise has
   *[other] { $count } exercises have
} saved in this browser: the SQL, the hints shown and the solved marks?
facilitator-reset-yes = Forget it
facilitator-reset-no = Keep it
facilitator-cleared = Cleared saved progress of { $count ->
    [one] { $count } exercise
   *[other] { $count } exercises
}.
facilitator-covers = covers { $list }
facilitator-seeds = checked on seeds { $seeds }
facilitator-goal = Goal
facilitator-checks = Checks ({ $count })
facilitator-hints = Hints, in the order learners see them ({ $count })
facilitator-edits = Learners edit:
facilitator-open = Open the exercise

# The error panel after an internal error (written when nothing else can run).
panic-title = Lockstep stopped
panic-explain = An internal error stopped the page, and it cannot carry on. Reload to start again; if it happens again, please report the message below.
panic-reload = Reload Lockstep
