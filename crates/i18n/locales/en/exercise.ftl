# The exercise page: goals, Check, hints, the editor.

exercise-not-title = Not an exercise
exercise-not-before = The lesson{" "}
exercise-not-after = {" "}has no goals to check.
exercise-not-open = Open it in the player.
exercise-watch = Watch the starting SQL in the player
exercise-goal = Goal:
exercise-goals = Goals
exercise-side = Goals and Check
exercise-cannot-run = This exercise cannot run
dismiss = Dismiss
progress-corrupt = Your saved progress for this exercise could not be read and was reset.
hint-first = Show a hint (1 of { $total })
hint-next = Next hint ({ $number } of { $total })
check-button = Check
reset-progress = Reset progress
reset-progress-title = Back to the starting SQL; forgets that you solved it
reset-done = Progress reset: the starting SQL is back.
reset-undo = Undo
checking = Checking on { $seeds } seeds…
check-progress = seed { $seed } ({ $number } of { $seeds }), { $steps } engine { $steps ->
    [one] step
   *[other] steps
}, { $time } of virtual time
check-progress-showing = the seeds are checked; now the run to show: { $steps } engine { $steps ->
    [one] step
   *[other] steps
}, { $time } of virtual time
check-cancelled = You cancelled Check: { $progress }. No goal was judged; change your SQL and press Check again.
check-solved = Solved: every goal holds on all { $seeds } seeds.
check-run-error = Not yet: a run of your SQL ended in an error, so the goals it met do not count (marked –); the others failed as shown.
check-failed = Not yet: { $failed } of { $total } goals failed. The run where the first one failed is below.
check-no-seed = No seed was run.
check-empty-block = this block is empty: write its SQL ("Reset progress" brings back the starting SQL).
check-goto = Put the caret on line { $line }, column { $col }
check-limit = The simulator stopped your SQL at one of its limits: { $message }
check-stale = Your SQL changed since this check: press Check again.
editor-label = Your SQL:
editor-changed = changed
editor-indents = {" "}indents,{" "}
editor-outdents = {" "}outdents ·{" "}
editor-then = , then{" "}
editor-moves-on = , moves on
editor-checks = {" "}checks
shown-label = The run
shown-failed = Where “{ $goal }” failed: seed { $seed }
shown-solution = A run of your solution: seed { $seed }
shown-error = This run cannot be shown

# A goal's verdict beside its name.
goal-unjudged-error = not judged: your SQL has an error
goal-unjudged-cancelled = not judged: you cancelled Check
goal-unchecked = not checked yet
goal-checking = being checked…
goal-not-counted = not counted: the run on seed { $seed } ended in an error
goal-met-all = met on all { $seeds } seeds
goal-failed-on = failed on seed { $seed }: { $detail }
goal-met-last = met at your last Check
goal-not-met-last = not met at your last Check
check-failed-run-stopped = seed { $seed }, session { $session }: { $message }
check-failed-run = seed { $seed }, session { $session }: error { $number }: { $message }

## A SQL parse error's frame (the parser's English, reworded in the exercise editor).
sqlerr-not-simulated = not simulated: { $what }
sqlerr-end = unexpected end of input
sqlerr-found = found '{ $token }'
sqlerr-expected-one = expected { $item }
sqlerr-expected-many = expected one of: { $items }
sqlerr-join = { $found }, { $expected }
sqlerr-paren = the '(' { $place } is not closed
sqlerr-string = the string opened { $place } runs to here: is its closing quote missing?
sqlerr-semicolon = a statement ends at its ';': without one, PostgreSQL reads this line as more of the statement above
sqlerr-place-here = at column { $col }
sqlerr-place-above = on the line above, at column { $col },
sqlerr-place-up = { $lines } lines up, at column { $col },
sqlerr-item-dollar-body = a dollar-quoted body ($$ ... $$)
sqlerr-item-transaction-name = a transaction name
sqlerr-item-expression = an expression
sqlerr-item-identifier = an identifier
sqlerr-item-operator = an operator
sqlerr-item-statement = a statement
sqlerr-item-table-hint = a table hint
sqlerr-item-set-option = a SET option
sqlerr-item-data-type = a data type
sqlerr-item-variable = a variable
sqlerr-item-constant = a constant
sqlerr-item-duration = a duration
sqlerr-item-alias = an alias
sqlerr-item-setting = a setting
sqlerr-item-number = a number
sqlerr-item-string = a string
exercise-solved-before = ✓ Solved before (not as it is now)
