# The CLI's own words: `lockstep run`'s text output and its SVG export (--lang). Numbers
# arrive written (`1500`), so the text reads the same in every language's figures.

# lockstep run, text
run-heading = lesson { $id }  seed { $seed }  { $settings }
run-no-toggles = no toggles
run-trace-cut = … { $count } events left out here (--full-trace prints them; --json has them all)
run-schedule = schedule { $schedule }
run-trace = trace:
run-outcome = outcome: ended at { $end } ms
run-session = { $session }: waited { $wait } ms, { $statements } { $statements_n ->
        [one] statement
       *[other] statements
    }, { $errors } { $errors_n ->
        [one] error
       *[other] errors
    }{ $caught }, { $reads } { $reads_name }, ran { $ran } ms{ $delayed }
run-caught = { " " }(+{ $count } caught)
run-delayed = , delayed { $ms } ms
run-error = error { $number }: { $message }
run-error-caught = error { $number } (caught): { $message }
run-result = result { $number } ({ $rows } { $rows_n ->
        [one] row
       *[other] rows
    }):
run-checks = checks: { $passed } passed, { $failed } failed
run-pass = PASS
run-fail = FAIL
run-bug-reproduced = { " " }[bug reproduced]
run-questions = questions: { $count }
run-question-none = no choice holds
run-question-many = several choices hold: { $choices }
run-anomalies = anomalies: { $count }
run-query = query: { $sql }

# lockstep run --svg
svg-title = { $title } — timeline
svg-desc = Lockstep timeline of lesson { $id }, seed { $seed }{ $settings }: one lane per session ({ $sessions }), the outcome per session and the lesson's checks.
svg-seed = seed { $seed }
svg-ended = ended at { $end } ms
svg-solution-note = with the exercise's solution
svg-span = { $from } to { $to } ms ({ $length } ms)
svg-runs = { $session } runs, { $span }
svg-sleeps = { $session } sleeps, { $span }
svg-is-waiting = { $session } is { $label }, { $span }
svg-consume-delayed = { $session }'s consume is { $label }, { $span }
svg-running = running
svg-sleeping = sleeping
svg-waiting-queued = waiting on { $resource } (queued behind earlier waiters)
svg-waiting-for = waiting on { $resource } for { $holders }
svg-delayed-empty = delayed: { $table } is empty
svg-mixed-title = { $session }: { $count } short stretches, { $span }: running { $running } ms, waiting { $waiting } ms, sleeping { $sleeping } ms
svg-mixed-label = mixed: running { $running }%, waiting { $waiting }%, sleeping { $sleeping }%
svg-short-run = run
svg-short-wait = wait
svg-short-sleep = sleep
svg-short-delayed = delayed
svg-short-mixed = mixed
svg-mark-error = { $count ->
    [one] error { $number }
   *[other] { $n } errors { $number }
}
svg-mark-skip = { $count ->
    [one] READPAST skip
   *[other] { $n } READPAST skips
}
svg-mark-deadlock = { $count ->
    [one] deadlock victim
   *[other] { $n } deadlock victims
}
svg-mark-result = { $count ->
    [one] result set
   *[other] { $n } result sets
}
svg-mark-commit = { $count ->
    [one] commit
   *[other] { $n } commits
}
svg-mark-rollback = { $count ->
    [one] rollback
   *[other] { $n } rollbacks
}
svg-mark-call = { $count ->
    [one] external call
   *[other] { $n } external calls
}
svg-mark-at = at { $at } ms
svg-mark-between = { $from } to { $to } ms
svg-mark-title = { $session } { $what } { $when }; { $event }
svg-mark-title-first = { $session } { $what } { $when }; first: { $event }
svg-key-running = running
svg-key-waiting = waiting on a lock (label: resource and holder)
svg-key-sleeping = sleeping
svg-key-delayed = delayed (Teradata consume)
svg-key-mixed = mixed: short stretches merged (dotted)
svg-key-error = error (number beside it)
svg-key-skip = READPAST skip
svg-key-deadlock = deadlock victim
svg-key-result = result set
svg-key-commit = commit
svg-key-rollback = rollback
svg-key-call = external call
svg-scale-note = At this scale a pixel is { $px } ms. Waits narrower than { $min } px, and running or sleeping stretches narrower than { $alone } px, are merged: neighbours in one state join, and a run of different states is drawn as one dotted "mixed" stretch in the colour of the state that took most time (its split is in the tooltip). Marks of one kind closer than { $bucket } px are drawn once, with a count (×N). Very short stretches are drawn { $min } px wide.
svg-outcome = Outcome: ended at { $end } ms
svg-col-session = session
svg-col-wait = wait ms
svg-col-errors = errors
svg-col-statements = statements
svg-col-first-row = first result row
svg-none = none
svg-no-result = no result
svg-checks = Checks: { $passed } passed, { $failed } failed
svg-no-check = No check applies to these settings.
