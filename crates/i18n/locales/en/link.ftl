# Notices about a link's parameters the page could not follow (`t=soon`). Parameter
# names, their values and the examples stay as a URL writes them.

link-time = `t={ $value }` is not a time: write milliseconds of virtual time, e.g. `t=1500`
link-events = `e={ $value }` is not an event count: write a whole number from 0 up, e.g. `e=12`
link-anomaly = `anomaly={ $value }` is not an anomaly's number: write one counting from 1, e.g. `anomaly=1`
link-why = `why={ $value }` is not `why=1` (the explanation open) or `why=0`: the explanation stays closed
link-tab = `tab={ $value }` is not one of `tab=lesson`, `tab=tables`, `tab=outcome` or `tab=events`: the lesson's text is shown
link-speed = `speed={ $value }` is not a speed the player offers ({ $speeds }): it plays at 1×
link-anomaly-beyond = `anomaly={ $asked }`: this run has { $count ->
        [0] no anomaly
        [one] one anomaly
       *[other] { $count } anomalies
    }, so it opens at the start
link-time-beyond = `t={ $value }` is past this run's end (`t={ $end }`), so it opens at its end
link-events-beyond = `e={ $asked }`: this run has { $count ->
        [one] one event
       *[other] { $count } events
    }, so it opens at its end
link-seed = `seed={ $value }` is not a seed: write a whole number from 0 up, e.g. `seed=7`
link-schedule = schedule `{ $text }`: item { $item } (`{ $token }`) is not a session number or NUMBER~COUNT
link-timed-schedule = `schedule={ $value }` is a timed schedule: the scheduler runs untimed, and its schedules start `u.`
link-steps = `steps={ $value }` is not a number of statements: write a whole number from 0 up, e.g. `steps=6`
link-view = `view={ $value }` is not a view: write `view=compact` or `view=full`
link-theme = `theme={ $value }` is not a theme: write `theme=light` or `theme=dark`
link-compare-param = `{ $name }` is not a compare parameter: use `left`, `right`, `seed` or `t`
link-toggle-pair = `{ $side }={ $item }` is not a toggle setting: write `name:value`, e.g. `{ $side }=readpast:off`
link-lang = `lang={ $value }` is not a language of this page: write `lang=en`, `lang=pl` or `lang=ja`
link-repeated = `{ $name }=` appears { $times } times in the link: the last, `{ $name }={ $kept }`, is used

# A toggle setting that does not fit the lesson (`lesson::SettingsError`), inside
# `link-bad-setting`.
link-unknown-toggle = unknown toggle `{ $name }` (toggles: { $known })
link-unknown-toggle-none = unknown toggle `{ $name }`: this lesson has no toggles
link-not-a-value = `{ $value }` is not a value of toggle `{ $name }` (values: { $values })
link-empty-value = toggle `{ $name }` needs a value (values: { $values })

# A schedule that could not be followed to its end (`ReplayProblem`): session numbers,
# names and counts come in as the run has them.
replay-not-enabled = schedule choice { $choice } picks session { $session } ({ $name }), but only { $enabled } can run then
replay-not-enabled-missing = schedule choice { $choice } picks session { $session }, which does not exist, but only { $enabled } can run then
replay-cannot-run = { $who } cannot run now
replay-that-session = that session
replay-no-such-session = there is no session { $session } (this lesson's sessions: { $known })
replay-pick = choice { $choice }: { $error }
replay-ended = the run ended after { $run } statements, before the { $asked } the link asks for
replay-out-of-choices = the schedule ran out of choices after { $run } statements, before the { $asked } the link asks for
replay-unused = the link stops after { $run } statements, so { $unused } of its { $total } choices were not used
replay-finished = every session finished after { $run } statements, so { $unused } of the link's { $total } choices were not used
