# What a check found, expected against actual (the outcome panel, an exercise's goals,
# the CLI's text with --lang). Rows are SQL literals; figure names are a lesson file's.

detail-query-failed = query failed at { $line }:{ $col }: { $message }
detail-no-session = session { $session } did not run with these settings
detail-no-result = session { $session } returned { $sets } { $sets ->
    [one] result set
   *[other] result sets
}; the check reads result { $result }
detail-figure-run = { $figure } = { $value } ({ $expected })
detail-figure-session = { $session } { $figure } = { $value } ({ $expected })
detail-figure-all = all sessions { $figure } = { $value } ({ $expected })
detail-rows = got { $got }
detail-rows-differ = expected { $expected }, got { $got }
detail-row-count = expected { $expected } { $expected ->
    [one] row
   *[other] rows
}, got { $got }
detail-row-count-listed = expected { $expected } { $expected ->
    [one] row
   *[other] rows
}, got { $got }: { $rows }
detail-scalar = got { $value } ({ $expected })
detail-not-a-number = expected a number, got { $got }
detail-not-one-number = expected one row with one number, got { $got }
detail-no-seed-run = no seed was run
expected-equal = expected { $value }
expected-between = expected { $min } to { $max }
expected-at-least = expected at least { $min }
expected-at-most = expected at most { $max }
expected-anything = expected anything
detail-session-error = { $session } gets error { $number }: { $message }
