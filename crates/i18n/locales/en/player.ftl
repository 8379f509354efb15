# The lesson page and its player: toggles, transport, narration, seed, dock.

player-label = Player
all-lessons = ← All lessons
open-scheduler = Be the scheduler
open-scheduler-title = Choose which session runs each statement yourself, or search every order
open-matrix = Outcome matrix
open-matrix-title = Every combination of the toggles on several seeds, in one table
open-exercise = Solve it in the editor
open-exercise-title = This lesson is an exercise: the editor, its goals and Check are on the exercise page
dock-label = Tables, outcome, events and the lesson's text
dock-tabs-label = Panels
tab-lesson = Lesson
tab-tables = Tables
tab-outcome = Outcome
tab-events = Events
predict-switch = Ask me to predict before a run ({ $count ->
    [one] 1 question
   *[other] { $count } questions
})

compare-title = Compare this run with { $toggle } = { $value }: both timelines on one time axis, one above the other
compare-label = Compare with { $toggle } = { $value }

home-label = Back to the start (Home)
home-title = Start (Home)
step-back-label = Step back one event (←)
step-back-title = Step back (←)
play-label = Play (Space)
pause-label = Pause (Space)
replay-label = Replay (Space)
play = Play
pause = Pause
replay = Replay
step-forward-label = Step forward one event (→)
step-forward-title = Step forward (→)
end-label = Jump to the end (End)
end-title = End (End)
speed = Speed
speed-title = At 1×, four events a second; a quiet stretch plays in real time up to a quarter second, a longer one shortened (2 s at most). The clock shows virtual time.
position-end = of { $end }
position-event = event { $event } of { $events }
virtual-time = Virtual time
idle = » quiet for { $span } — plays compressed
idle-title = Playback passes quiet stretches faster than real time

seed = Seed
seed-run = Run
seed-next = Next seed
seed-next-title = Run the next seed
seed-random = A different interleaving
seed-random-title = Run a random seed: the sessions interleave differently
seed-reset = Lesson's seed ({ $seed })
seed-help = The seed decides how the sessions interleave; the same seed replays the same run.
seed-invalid = A seed is a whole number from 0 up.

narration-start = Start: the setup has run and no session has started. Press Play, or → to step.
narration-start-touch = Start: the setup has run and no session has started. Tap Play, or ▶| to step.
narration-event = { $time } · event { $event } of { $events }: { $line }

run-progress = { $steps } engine { $steps ->
    [one] step
   *[other] steps
}, { $time } of virtual time
cancel = Cancel
cancelled-title = You cancelled this run
cancelled-detail = It had run { $steps } engine { $steps ->
    [one] step
   *[other] steps
}, { $time } of virtual time.
run-again = Run again
run-error-title = This setting cannot be simulated
run-error-hint = Switch a toggle back to see a run.

url-warnings-title = This link could not be followed exactly
schedule-note-before = This run replays the schedule{" "}
schedule-note-untimed = {" "}untimed (every statement boundary is a choice)
schedule-note-after = ; past its end the seeded scheduler picks.
schedule-note-stopped = ; the run stops where the schedule cannot be followed.
schedule-note-back = Back to the seeded run
schedule-problem = The schedule could not be followed: { $problem }.
conflict-step = Conflicting step { $step }: { $line }
conflict-step-at = { $label } at { $at }
link-bad-setting = The link asks for `{ $setting }`: { $error }{ $default }.
link-showing-default = ; showing `{ $setting }`
