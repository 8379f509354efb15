# "Why": the rule behind a wait, a skip, an error or an anomaly. Sessions, tables, keys,
# lock modes, statements and error numbers come in as the run names them.

why-title = Why: { $label }
why-sentence = { $text }.
why-period = .
why-in-statement = , in { $statement }
why-statement-aside = {" "}({ $statement })
why-statement = its { $label }, line { $line }
why-statement-in-proc = its { $label } in { $proc }, line { $line }
why-meaning = : { $meaning }.
why-verb-wrote = wrote

why-wait-title = Why { $session } waits
why-wait-asks = { $session } asks for { $mode } on { $resource }.
why-wait-asks-in = { $session } asks for { $mode } on { $resource } ({ $statement }).
why-wait-queued = Earlier requests for { $resource } are queued and locks are granted in order, so { $session } waits its turn.
why-wait-behind = { $queued } asked for { $wanted } on { $resource } earlier{ $aside } and still waits for it. Locks are granted in order, and { $mode } is not compatible with { $wanted }: { $session } waits behind { $queued }.
why-wait-incompatible = { $mode } is not compatible with { $held }: { $session } waits until { $holder } releases it.

why-refused-title = Why { $session } was refused
why-refused-asks = { $session } asks for { $mode } on { $resource } with { $function }, which never waits.
why-refused-incompatible = { $mode } is not compatible with { $held }, which { $holder } holds: { $function } answers false at once, and { $session } goes on without the lock.
why-refused-behind = { $queued } asked for { $wanted } on { $resource } earlier{ $aside } and still waits for it. Locks are granted in order, and { $mode } is not compatible with { $wanted }: { $function } answers false at once rather than wait behind { $queued }, and { $session } goes on without the lock.
why-holds-since = { $holder } holds { $mode } on { $resource } since { $time }
why-holds = { $holder } holds { $mode } on { $resource }.
why-key-check = The lock comes from { $holder }'s check of foreign key { $constraint }: until { $holder }'s transaction ends, the referenced row can be neither deleted nor given another key.

why-skip-title = Why { $session } skipped { $table } { $key }
why-skip-rule = { $session } skipped { $table } { $key }: { $clause } skips rows locked in a mode its lock conflicts with.
why-skip-holder = { $holder } holds { $held } on it; { $session } needs { $wanted }, which is not compatible, so it reads on instead of waiting.

why-error-title = Why { $session } got error { $number }
why-error-in = { $session } got it in { $statement }.
why-error-rethrown = A THROW without arguments re-raises the error its CATCH block caught, unchanged: it came from { $statement }, and SQL Server reports that statement's line, not the THROW's.
why-error-deadlock = The deadlock monitor chose { $victim } as the victim of the cycle { $cycle }.
why-error-serialization = { $session } reads from a snapshot taken at its transaction's first statement. Another transaction changed this row and committed after that snapshot, and at this isolation level a transaction may not lock or change such a row: it fails rather than overwrite a change it never saw. Retry the whole transaction.
why-error-rw-dependencies = { $session }'s transaction is SERIALIZABLE: the database tracked what it read and what it wrote. Another serializable transaction changed rows { $session } had read, and { $session } changed rows the other had read (or a third closed the circle): no order of running them one after the other gives these results, so one of them is cancelled, here { $session }'s. Retry the whole transaction, a failing COMMIT included.
why-error-readpast-level = READPAST may be used only at READ COMMITTED or REPEATABLE READ: at SNAPSHOT or SERIALIZABLE (or with NOLOCK or HOLDLOCK) SQL Server refuses the statement before it reads a row, whatever the data.
why-error-set-options = A write to a table with a filtered index (or an indexed view, or an index on a computed column) needs QUOTED_IDENTIFIER ON, among other options. A procedure runs with the QUOTED_IDENTIFIER it was created with, whatever its caller sets, so a SET before the call does not help: the procedure must be created again with it ON.
why-error-unique = A row with this key is already there (another transaction inserted it first; an insert that found it uncommitted waited for that commit): the unique index refuses a second one.
why-error-delayed-limit = Teradata lets at most 20 % of a parsing engine's sessions (24 of the default 120) wait in the delayed state of a SELECT AND CONSUME on an empty queue; { $session }'s consume would have been one more, so its transaction is aborted. The message speaks of a consume statement limit, but the limit reached is the number of delayed sessions.
why-error-no-transaction = An END TRANSACTION closes what a BEGIN TRANSACTION opened; { $session }'s transaction had already ended (an abort ends it and rolls it back), so this ET has nothing to close.
why-error-caught = A TRY block caught it: the script goes on in its CATCH block.
why-error-uncaught = No TRY block caught it, so it reached the client.
why-error-caught-exception = An EXCEPTION block caught it: the function goes on in its handler.
why-error-uncaught-exception = No EXCEPTION block caught it, so it reached the client.
why-error-reached-client = Nothing in the request handles it: BTEQ reports the failure and sends the script's next request.

why-deadlock-title = Why { $victim } was chosen as the deadlock victim
why-deadlock-circle = { $cycle } wait for each other in a circle: each waits for a lock the next one holds, so none can go on.
why-deadlock-victim = The deadlock monitor ends the circle by rolling back one transaction, chosen by DEADLOCK_PRIORITY and then the least work to undo: { $victim }'s. { $victim } gets error 1205.

why-timeout-title = Why { $session } stopped waiting
why-timeout = { $session } waited { $waited } for { $resource }, as long as its { $setting } allows, and gave up: its statement fails.
why-nowait-title = Why { $session } did not wait
why-nowait = { $session } asks for a lock on { $resource } with NOWAIT: where another session holds a conflicting lock, it fails at once instead of waiting.
why-applock-timeout-title = Why { $session } did not get the application lock
why-applock-timeout = { $session }'s sp_getapplock asked for { $mode } on { $resource }, but { $holders } holds it in a mode that does not allow that. The call could wait only as long as its @LockTimeout allows, and the lock did not come free in that time, so it returns -1: no error is raised and nothing is rolled back; the code that reads the return value decides what happens next.
why-applock-someone = another session

why-dup-again = { $second } { $verb } { $values } again ({ $table } { $key }{ $update }): { $first } { $first_read } and { $verb } it at { $first_write }; { $second } { $second_read }
why-dup-by-update = , by an UPDATE
why-dup-read-at = read it at { $time }
why-dup-no-read = did not read it first
why-dup-before-commit = , before { $first }'s write committed at { $time }.
why-dup-after-commit = , after { $first }'s write committed at { $time }.
why-dup-uncommitted = , while { $first }'s write was not committed.
why-dup-read-was = { $session }'s read was { $statement }
why-dup-gap = A read and a write in two statements leave a gap: the second session read the row before the first one's write committed, and each acted on what it read.
why-dup-both = { $table } ({ $first_key }) and { $table } ({ $key }) both have { $values }.

why-unmatched = { $session } { $verb } { $table } { $key } ({ $values }) at { $time }; no { $match_table } row has { $wanted } at the end of the run.
why-unmatched-error = After it { $session } got error { $number } at { $time }
why-unmatched-unrecorded = , before a { $match_table } row recorded it; what was done outside the database stays done.
why-unmatched-finished = { $session } finished without writing the { $match_table } row that would record it.
why-unmatched-nobody = From { $match_table } alone nobody can tell that { $table } { $key } happened.
why-unmatched-removed = { $by } deleted the { $match_table } row with { $wanted } at { $time }, after that insert, and nothing stopped it: { $table } { $key } now points at a row that is gone.

why-lost-consumed = { $session } consumed { $table } { $key } at { $time }
why-lost-got = {" "}and got { $row }
why-lost-more = , and { $count ->
    [one] 1 more row
   *[other] { $count } more rows
}
why-lost-meaning = the action taken for the row failed
why-lost-committed = { $session } committed at { $time }, so the consume is permanent: the row is gone from { $table } and nothing records what was done with it.
why-lost-rollback = A ROLLBACK would have undone the consume with the failed action and put the row back in the queue.
why-then-error = Then { $session } got error { $number } at { $time }

why-kept-wrote = { $session } { $verb } { $table } { $keys }
why-kept-more = {" "}and { $count ->
    [one] 1 more row
   *[other] { $count } more rows
}
why-kept-at = {" "}at { $time }
why-kept-committed = ; that change committed at { $time }.
why-kept-meaning = the work those rows record failed
why-kept-stay = The rows in { $table } stay as written, so they say the work was done: nothing marks them for another try.
