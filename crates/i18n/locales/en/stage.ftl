# The stage's panels: timeline, sessions, waits and locks, tables, events, why, predict.

timeline = Timeline
timeline-whole = whole run, { $span }
# A compact widget's lanes box shows two sessions (three on a phone); said when there are more.
lanes-more = { $count } sessions ↓
lanes-more-title = The timeline shows some of the sessions: scroll it for the others
timeline-whole-shared = whole run, { $span }, on the longer run’s scale of { $axis }
zoom-group = Zoom the timeline
zoom-in = Zoom in
zoom-in-title = Zoom in (or wheel up)
zoom-out = Zoom out
zoom-out-title = Zoom out (or wheel down)
zoom-reset = Whole run
lane-title = { $name }: click to move the playhead
lane-starts = starts at { $time }
lane-statement = { $label } at line { $line }
lane-queue = queue
lane-waits = waits for { $whom }
lane-sleeps = sleeps
lane-delayed = delayed: { $table } empty
overview-all = all
overview-title = The whole run
overview-label = Visible stretch of the run: drag to choose one, arrow keys to move it, + and − to zoom
overview-value = { $from } to { $to }
legend = Legend
legend-running = running
legend-waiting = waiting for a lock (holder named)
legend-sleeping = sleeping (a delay)
legend-delayed = delayed (consume on an empty queue)
legend-mixed = many short steps: zoom in to see each statement
legend-marks = ✕ error · ⤼ skipped a locked row · ◆ result · ✓ commit · ↺ rollback · ☠ deadlock
legend-anomaly = anomaly: what the lesson is about ([ and ] jump between them, ? says why)
legend-zoom = Zoom: wheel or pinch over the lanes, + and −, or drag across the whole-run strip.
keys = Keys
keys-space = Space
keys-play = play or pause
keys-step = one event back or forward
keys-ends = the start, the end
keys-anomaly = the previous or next anomaly
keys-why = open or close “why”
keys-escape = close “why”; on a toggle, give the keys back to the player
keys-page = scroll the stage

anomaly-at = { $anomaly } at { $time }
anomaly-none = No anomalies in this run.
anomaly-of = Anomaly { $shown } of { $total }
anomaly-of-several = Anomalies { $first }–{ $last } of { $total }
anomaly-ahead = { $total ->
    [one] { $total } anomaly ahead
   *[other] { $total } anomalies ahead
}
anomaly-passed = { $shown } of { $total } so far
anomaly-about = anomalies: what this lesson is about
anomaly-group = Anomalies
anomaly-prev = Previous anomaly
anomaly-prev-title = Previous anomaly ([)
anomaly-prev-button = ◂ Anomaly
anomaly-next = Next anomaly
anomaly-next-title = Next anomaly (])
anomaly-next-button = Anomaly ▸

why-button = Why?
why-hide = Hide why
why-button-title = Why did this happen? (? opens and closes, Esc closes)
why-nothing-title = Nothing to explain here
why-nothing = The event at the playhead follows from the SQL alone. Step to a wait, a skip, an error or an anomaly (] jumps to the next anomaly) and its reason shows here.
why-nothing-no-anomalies = The event at the playhead follows from the SQL alone. Step to a wait, a skip or an error and its reason shows here.
why-matrix-caption = Lock compatibility ({ $dialect }): can a lock asked for (row) be granted while another session holds (column)?
why-matrix-lit = Lit: { $asked } asked, { $held } held.
why-matrix-corner = asked \ held

code-sessions = Sessions
code-sessions-now = Sessions now
code-running = running
code-finished = finished
code-idle = no statement now
code-not-started = not started (starts at { $time })
code-waiting = waiting for { $whom }: wants { $mode } on { $resource }
code-earlier-waiters = earlier waiters
code-sleeping = sleeping until { $time }
code-delayed = delayed: its consume waits for a row in queue table { $table }
code-in-setup = in the setup block, line { $line }:
code-in-setup-proc = inside procedure { $proc } (setup block), line { $line }:
code-trancount = in transaction ({ $count })
code-trancount-title = open transactions (@@TRANCOUNT)
code-toggled = switched by the toggle “{ $toggle }”
code-toggled-empty = the toggle “{ $toggle }” puts no text here now
narrative-session = session { $name }, starts at { $time }

waits-title = Who waits for whom
waits-edge = { $mode } on { $resource }
waits-nobody = Nobody waits
waits-nobody-now = Nobody waits now.
waits-deadlock = Deadlock: { $cycle } — { $victim } is the victim (error 1205).
locks-title = Locks held
locks-none = No locks (intent locks aside).
locks-none-plain = No locks.
locks-more = … and { $count } more
locks-waiting = waiting:
locks-wants = { $session } wants { $mode }
state-through = Shown as after event { $last }, where this step ends: events { $first }–{ $last } happen together at { $time }.
filter-label = Filter the tables
filter-text = Find rows by id or value
filter-session = Rows of a session
filter-any-session = any session
filter-locked = locked now
filter-anomalies = with anomalies ({ $count })
filter-clear = Show all
table-match = { $matched } of { $total ->
    [one] { $total } row match
   *[other] { $total } rows match
}
table-first-shown = first { $shown } shown
table-shown = { $shown } shown: locked, recently changed, and the first
table-no-match = no matching rows
table-no-rows = no rows
table-gap = … { $count ->
    [one] { $count } more row
   *[other] { $count } more rows
} …
table-locks-column = Locks
table-locks-short = locks
table-changed-now = (changed now)
table-skipped = ⤼ skipped
table-recent = Latest changes to rows not shown:
log-seek = Move the playhead to this event

predict-title = Predict first
predict-skip = Skip: show the run
predict-summary-hidden = Predict first: the summary follows your answer.
predict-narrative-hidden = The lesson's text explains what the run shows, so it opens once you have answered the question or skipped it.
predict-panel-hidden = This tab shows the run, so it opens once you have answered the question or skipped it.
predict-stop = Stop asking me
predict-hint = Answers stay in this browser; the Lesson tab turns the questions back on.
predict-running = Running…
predict-right = Right.
predict-wrong = Not quite.
predict-you-said = You said: { $answer }.
predict-run-says = The run says: { $answer }.
predict-none = none of the choices
predict-cannot-judge = This run cannot judge the answer: { $error }.
predict-moment = See the moment
predict-yours = Your prediction
predict-again = Ask me again

# Two runs side by side.
compare-page-title = Compare: { $title }
compare-back = Back to the lesson
compare-same = Both sides have the same settings: choose another value for one side to compare.
compare-same-choose = Compare with the right side set to:
compare-simulating = Simulating both runs…
compare-never = The two runs never diverge: every event happens the same way at the same time.
compare-part = The runs part at { $time } (event { $event }).
compare-same-before = Every event before it is the same in both.
compare-both = Both sides:
compare-left = Left:
compare-right = Right:
compare-ended = the run has ended
compare-why = Why: the only difference is { $differs }; this is the first event it changes, and everything after follows from it.
compare-go = Go to this moment
compare-left-run = left run
compare-right-run = right run
compare-marker = The runs part at { $time }
compare-of = of { $end }
compare-scrub = Virtual time, both runs
compare-back-label = Back to the previous instant of either run (←)
compare-forward-label = On to the next instant of either run (→)
compare-outcomes = Outcomes
compare-left-title = Left
compare-right-title = Right, against the left
compare-no-difference = No toggle differs.
compare-differ = Left and right differ in { $differs }.
compare-swap = Swap sides

# The outcome matrix.
matrix-title = Outcome matrix: { $title }
matrix-back = ← Back to the lesson
matrix-intro = Every combination of the lesson's toggles, each run on several seeds. A cell is what every seed gave, or min–max when the seeds differ; open a cell to watch that run.
matrix-starting = Running every combination…
matrix-running = Running { $done } of { $runs } runs… { $time }
matrix-cancelled = You cancelled the matrix after { $done } of { $runs } runs.
matrix-again = Compute it again
matrix-failed = The matrix could not be computed
matrix-summary = { $rows ->
    [one] 1 combination
   *[other] { $rows } combinations
} × { $seeds ->
    [one] 1 seed
   *[other] { $seeds } seeds
} ({ $list }): { $runs ->
    [one] 1 run
   *[other] { $runs } runs
} in { $time }.
matrix-checks = checks
matrix-checks-title = Check verdicts that passed, of those that apply, over every seed
matrix-errors-label = Errors no TRY block caught, by session and number
matrix-errors-label-exception = Errors no EXCEPTION block caught, by session and number
matrix-errors-label-client = Errors that reached the client, by session and number
matrix-marks-pass = as expected on every seed
matrix-marks-fail = not as expected on some seed
matrix-marks-bug = the lesson's bug, reproduced on every seed
matrix-marks-note = A mark says whether what the lesson's checks and properties expect of a cell came true (properties are judged on each run's final state); a cell without one has no expectation with these settings. Tab goes from row to row; Enter opens the row's run in the player.
matrix-mark-pass = as expected
matrix-mark-fail = not as expected
matrix-mark-bug = bug reproduced
matrix-property-holds = ✓ holds at the end
matrix-property-broken = ✗ broken
matrix-verdict = { $verdict }: { $name }
matrix-open-row = { $settings }: open this run in the player (seed { $seed })
matrix-errors-none = none
matrix-no-rows = no rows

block-setup = setup: run before the sessions
block-show = shown only, not run
block-off = { $count ->
        [one] (A block that takes part only when { $when }: not in this run.)
       *[other] ({ $count } blocks that take part only when { $when }: not in this run.)
    }
block-or = {" "}or{" "}
block-and = {" "}and{" "}

# Be the scheduler, and Explore.
schedule-can-run = can run
schedule-run = Run { $session }
schedule-run-key = Run { $session } ({ $key })
schedule-next = Next statement, line { $line } of { $session }’s SQL:
schedule-next-setup = Next statement, line { $line } of a setup block (a procedure the session called):
schedule-goes-on = Goes on with line { $line } of { $session }’s SQL, which it has started:
schedule-goes-on-setup = Goes on with line { $line } of a setup block (a procedure the session called), which it has started:
schedule-finished = Every session has finished, after { $count } statements.
schedule-none-can-run = No session can run.
schedule-who-next = { $count ->
    [one] 1 statement run
   *[other] { $count } statements run
}. Who runs next: { $names }?
schedule-step = Step { $step }: { $lines }
# Between two events of one step.
schedule-step-join = { "; " }
# Between two session names in a list.
schedule-names-join = { ", " }
# Under the Run button of the session just picked: that step's events follow.
schedule-did = What step { $step } did:
schedule-problem-title = The link's schedule could not be followed to its end
schedule-undo = Undo
schedule-keys = Keys: 1–{ $last } run a session, Backspace or u undoes.
schedule-refused-cannot = { $session } cannot run now: { $status }.
schedule-refused-finished = { $session } has finished.
schedule-refused-none = No session has the key { $key }.
schedule-string = Schedule:
schedule-string-help = (the choices so far, as the page's link and lockstep run --schedule replay them)
schedule-log = Steps so far
schedule-log-note = newest first
schedule-log-empty = No statement has run yet.
schedule-log-broken = “{ $name }” broken: { $detail }
properties = Properties
properties-note = judged after every statement, or at the end
property-holds = holds so far
property-at-end = judged when every session has finished
property-held = held
property-broken-at = broken at step { $step }: { $detail }
property-alert = Step { $step } broke “{ $label }”: { $detail }.
explore-title = Explore every interleaving
explore-intro = Searches every order of the sessions' statements (skipping states it has seen and orders that cannot matter) for one that breaks a property.
explore-property = Property
explore-button = Explore
explore-running = Exploring…
explore-cancelled = You cancelled the search: { $progress }. Nothing is proved either way.
explore-failed = The search could not run
# Ends the sentence after "Why:".
explore-why-end = .
explore-why = Why:
explore-open-scheduler = Open in the scheduler
explore-open-player = Open in the player
explore-rate = , { $rate } states/s
explore-progress = { $states } states explored, depth { $depth } (deepest { $deepest }){ $rate }
explore-bounds = up to { $steps } steps per interleaving and { $states } states
explore-holds = “{ $label }” holds for every interleaving { $bounds }: { $states } { $states ->
    [one] state
   *[other] states
} and { $schedules } { $schedules ->
    [one] schedule
   *[other] schedules
} explored, exhaustively, in { $took } ms.
explore-held = “{ $label }” held in every interleaving tried, but the search was not exhaustive: it reached its bounds ({ $bounds }) after { $states } { $states ->
    [one] state
   *[other] states
} and { $schedules } { $schedules ->
    [one] schedule
   *[other] schedules
}, then ran { $walks } random { $walks ->
    [one] walk
   *[other] walks
}, in { $took } ms.
explore-breaks = “{ $label }” breaks after { $statements } { $statements ->
    [one] statement
   *[other] statements
} ({ $switches } context { $switches ->
    [one] switch
   *[other] switches
}): { $detail }. Found after { $states } { $states ->
    [one] state
   *[other] states
} in { $took } ms.

# A counterexample's steps and why it breaks (the Explore result, the player's
# narration of a replayed schedule). Sessions, tables, keys, statements and the trace's
# lines come in as the run writes them; { $did } is what the step did, joined with "; ".
explore-server = server
explore-step-runs = { $who } runs { $statement }
explore-step-finishes = { $who } finishes its statement
explore-step-reads = reads { $rows }
explore-step-did = { $who } { $did }
explore-server-did = { $who } { $did }
explore-step-statement = { $did } ({ $statement })
explore-conflict = { $reader } reads { $row } before { $writer }'s { $verb } writes it; both go on to write it
explore-conflict-unnamed = { $reader } reads { $row } before { $writer }'s WRITE writes it; both go on to write it
explore-a-row = a row

schedule-title = Be the scheduler: { $title }
schedule-back = Back to the player
schedule-intro = You choose which session runs its next statement, one statement at a time, with no clock deciding for you. Find the order that breaks the lesson's properties, or let Explore search every order.
why-matrix-yes = compatible
why-matrix-no = not compatible

# Lane segments and marks, for titles and screen readers.
seg-runs = { $session } runs from { $span }
seg-sleeps = { $session } sleeps from { $span }
seg-delayed = { $session } is delayed from { $span }: its consume waits for a row in queue table { $table }
seg-waits = { $session } waits for { $whom } from { $span }, for a lock on { $resource }
seg-mixed = { $session }, { $span }: { $count } short stretches: running { $running }, sleeping { $sleeping }, waiting { $waiting } ({ $waits } waits)
mark-error = gets error { $number }
mark-skipped = skips a locked row
mark-deadlock = is the deadlock victim
mark-result = gets a result
mark-commit = commits
mark-rollback = rolls back
mark-call = calls the external system
mark-times = { $session } { $what } ({ $count } times from { $time })
mark-at = { $session } { $what } at { $time }

# An anomaly's words (the anomaly marks, the anomaly navigator, the why panel's title).
anomaly-deadlock-victim = deadlock victim
anomaly-error = error { $number }
anomaly-repeats = { $table } ({ $key }) repeats { $values } of { $table } ({ $first })
anomaly-updated-to-repeat = { $table } ({ $key }) updated to repeat { $values } of { $table } ({ $first })
anomaly-unmatched = { $table } ({ $key }) has { $values }; no { $other } row has it
anomaly-unmatched-error = { $unmatched }; { $session } got error { $number } after it
anomaly-unmatched-removed = { $unmatched }; { $by } deleted { $other } ({ $key })
anomaly-lost = { $table } ({ $keys }) consumed; then error { $number }; then commit
anomaly-lost-returned = { $table } ({ $keys }) consumed and returned { $row }; then error { $number }; then commit
anomaly-kept = { $table } ({ $keys }) written and committed; then error { $number }

# The event log, the wait-for graph, the tables and the code's toggled places.
log-note = { $count } in this run; click one to go there
log-earlier = … { $count } earlier events
log-later = … { $count } later events
waits-sentence = { $waiter } waits for { $holder } ({ $label })
table-holds = { $session } holds { $mode }
table-search-placeholder = Find a row: id or value
row-uncommitted = ✎ { $session } uncommitted
row-uncommitted-title = changed by { $session }, not yet committed
code-nothing-for = (nothing here for { $toggle })
code-line = line { $line }
row-skipped = { $session } skipped it ({ $clause }): { $holder } holds { $held }, { $session } needs { $wanted }
matrix-seed-reading = seed { $seed }: { $reading }

# The built-in properties of the scheduler and Explore (lessons declare their own).
property-no-errors = No session ends with an error
property-no-deadlock = No deadlock
# Between two sentences of one paragraph (Japanese writes none after 。).
sentence-gap = { " " }
