# The trace's one-line events, as the event log shows them. English shows the engine's
# own line (`Event`'s Display, the trace tests assert); these messages word the same
# lines in the other languages, and the tests check that English words them alike.
# Sessions, tables, keys, resources, lock modes, SQL and error messages come as the run
# names them.

trace-setup = setup ran { $statements ->
    [one] { $statements } statement
   *[other] { $statements } statements
} and left { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
}
trace-connects = { $session } connects
trace-script-done = { $session } finishes its script
trace-runs = { $session } runs line { $line }: { $text }
trace-runs-in-proc = { $session } runs { $proc } line { $line }: { $text }
trace-statement-done = { $session } finishes { $label }{ $details } in { $ms }{ $flush }
trace-statement-details = , { $list }
trace-statement-rows = { $rows } row(s)
trace-statement-reads = { $reads } { $reads_name }
trace-statement-flush = {" "}({ $ms } of it waiting for a slow log flush)
trace-begins = { $session } begins a transaction
trace-begins-autocommit = { $session } begins an autocommit transaction
trace-commits = { $session } commits and releases { $locks } lock(s){ $intent }
trace-rolls-back = { $session } rolls back ({ $why }) and releases { $locks } lock(s){ $intent }
trace-intent-tables = { $count ->
    [one] , 1 of them on a table
   *[other] , { $count } of them on tables
}
trace-intent-pages = { $count ->
    [one] , 1 of them on a table or page
   *[other] , { $count } of them on tables or pages
}
trace-why-trigger = ROLLBACK in a trigger
trace-why-session-ended = the session ended with an open transaction
trace-why-error = error { $code }
trace-why-unnumbered = error with no number
trace-gets = { $session } gets { $mode } on { $resource }
trace-gets-after = { $session } gets { $mode } on { $resource } after waiting { $ms }
trace-waits = { $session } waits for { $mode } on { $resource }: { $holders }
trace-asks-nowait = { $session } asks for { $mode } on { $resource } with NOWAIT: { $holders }
trace-holder = { $holder } holds { $mode }
trace-holders-queued = earlier waiters are queued
trace-queued-ahead = { $session } is queued ahead for { $mode }
trace-refused = { $session } is refused { $mode } on { $resource }: { $holders }; { $function } returns false
trace-releases-commit = { $session } releases { $mode } on { $resource } at commit
trace-releases-rollback = { $session } releases { $mode } on { $resource } at rollback
trace-releases-statement = { $session } releases { $mode } on { $resource } at the end of the statement
trace-releases-request = { $session } releases { $mode } on { $resource } on request
trace-skips = { $session } skips { $table } ({ $key }) with { $clause }: { $holder } holds { $held }, { $session } needs { $wanted }
trace-label-assignment = assignment
trace-reads = { $session } reads { $rows } row(s) of { $table } by { $access }: { $reads } { $reads_name }
trace-access-clustered-seek = clustered index seek
trace-access-clustered-scan = clustered index scan
trace-access-index-seek = seek on index { $index }
trace-access-primary-index = primary index (row hash)
trace-access-constant = no table
trace-access-seq-scan = sequential scan
trace-access-all-rows-scan = all-rows scan
trace-access-index-scan = index scan using { $index }
trace-inserts = { $session } inserts { $table } ({ $key })
trace-updates = { $session } updates { $table } ({ $key })
trace-updates-values = { $session } updates { $table } ({ $key }): { $changes }
trace-change = { $column } { $old } -> { $new }
trace-deletes = { $session } deletes { $table } ({ $key })
trace-fk-exists = { $session } checks foreign key { $constraint }: { $reads } ({ $key }) must exist
trace-fk-action = { $session } checks foreign key { $constraint } (ON { $on } { $action }): rows of { $reads } that reference { $table } ({ $key }) { $effect }
trace-fk-deleted = are deleted too
trace-fk-set-null = are set to NULL
trace-fk-set-default = are set to their default
trace-result = { $session } gets { $rows } row(s) [{ $columns }]
trace-result-first = { $session } gets { $rows } row(s) [{ $columns }]: { $first }
trace-sleeps = { $session } sleeps { $ms } ({ $call })
trace-error = { $session } gets error { $code }: { $message }
trace-error-caught = { $session } gets error { $code }, caught: { $message }
trace-error-severity = { $number } (severity { $severity }, state { $state })
trace-no-wait = { $session } does not wait for { $resource } (NOWAIT)
trace-stops-waiting = { $session } stops waiting for { $resource } after { $ms } ({ $setting })
trace-deadlock = deadlock: { $cycle }; { $victim } is chosen as the victim
trace-deadlock-edge = { $from } waits for { $to }
trace-prints = { $session } prints: { $text }
trace-calls = { $session } calls { $procedure }
trace-leaves-on-error = { $session } leaves { $procedure } on error { $error }
trace-returns-code = { $session } returns from { $procedure } with code { $code }
trace-returns = { $session } returns from { $procedure }
trace-consume-delayed = { $session } finds { $table } empty: its consume is delayed, holding no lock on { $table }, until a row arrives
trace-consume-resumed = { $session }'s consume on { $table } resumes after { $ms } in the delayed state
trace-fifo-rebuilt = { $session } changed queue table { $table }: its FIFO cache is rebuilt with a full table scan ({ $reads } logical reads)
trace-external-call = { $session } calls the external system: it records call ({ $key })
trace-applock = { $session }'s sp_getapplock for { $mode } on { $resource } returns { $code }: { $meaning }
trace-applock-granted = granted at once
trace-applock-granted-after-wait = granted after waiting
trace-applock-timed-out = timed out
trace-applock-timed-out-held = timed out: { $holders } holds it
trace-applock-victim = chosen as deadlock victim
trace-applock-error = a parameter or call error
trace-escalated = { $session } escalates to { $mode } on { $resource }: its { $released } row and page lock(s) there are released
trace-list-sep = ,{" "}

# A key range in a lock resource (KEY send (end of index)).
key-end-of-index = end of index
key-range-below = range below { $key }
