# The outcome panel, full and compact.

outcome-title = Outcome
outcome-note = whole run · ended at { $end } · seed { $seed }
result-caption = Result { $number } · { $rows ->
    [one] { $rows } row
   *[other] { $rows } rows
}
result-more = … { $count } more
result-less = show fewer rows
results-more = … and { $count ->
    [one] { $count } more result set
   *[other] { $count } more result sets
}; the Events tab lists each
error-number = Error { $number }
# An error without a number, in place of its code: a rule whose number is not known, SQL that is not simulated.
error-unnumbered = (no number)
error-detail = (severity { $severity }, state { $state }): { $message }
# PostgreSQL and Teradata: no severity or state number.
error-detail-sqlstate = : { $message }
error-caught = — caught by a CATCH block
error-caught-exception = — caught by an EXCEPTION block
errors-caught = { $uncaught } (+{ $caught } caught)
figure-ran = ran for
figure-waited = waited for locks
figure-delayed = delayed, waiting for a row
figure-statements = statements
figure-reads = logical reads
figure-buffers = shared buffers hit
figure-errors = errors
no-results = No result sets returned to the client.
check-pass = ✓ pass
check-fail = ✗ fail
check-bug = ⚠ bug reproduced
checks-pass = Checks: { $passed } of { $total } pass
goals-met = Goals held in this run: { $passed } of { $total }
exercise-note = This is an exercise: the goals are met once the SQL is fixed. Read the lesson text for the task.
changes-title = What the last toggle changed
changes-title-beside = What differs from the left run
changes-none = Nothing in the outcome changed.
became = became

compact-ended = ended at { $end } · seed { $seed }
compact-checks = checks: { $passed } of { $total } pass
compact-session = waited { $wait } · { $rows ->
    [one] { $rows } row
   *[other] { $rows } rows
} · { $errors ->
    [one] { $errors } error
   *[other] { $errors } errors
}
# A Teradata consume's time in the delayed state, after a session's figures.
compact-caught = { " " }(+{ $count } caught)
compact-delayed = { " " }· delayed { $ms }
compact-last-toggle = Last toggle:
compact-beside = Against the left:
compact-nothing-changed = nothing in the outcome changed.
compact-more = Results, errors and checks

# What the last toggle changed: the row names and values.
change-toggle = { $label }
change-seed = Seed
change-runs = { $session } runs
change-waited = { $session } waited
change-delayed = { $session } delayed, waiting for a row
change-ran = { $session } ran for
change-errors = { $session } errors
change-got = { $session } got
change-reads = { $session } { $reads }
change-end = Run ended at
change-anomalies = Anomalies
change-check = Check “{ $name }”
change-yes = yes
change-no = no
change-passed = passed
change-failed = failed
change-none = none
change-no-result = no result
