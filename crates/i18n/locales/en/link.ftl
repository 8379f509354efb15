# Notices about a link's parameters the page could not follow (`t=soon`). Parameter
# names, their values and the examples stay as a URL writes them.

link-time = `t={ $value }` is not a time: write milliseconds of virtual time, e.g. `t=1500`
link-events = `e={ $value }` is not an event count: write a whole number, e.g. `e=12`
link-anomaly = `anomaly={ $value }` is not an anomaly's number: write one counting from 1, e.g. `anomaly=1`
link-seed = `seed={ $value }` is not a seed: write a whole number, e.g. `seed=7`
link-schedule = schedule `{ $text }`: item { $item } (`{ $token }`) is not a session number or NUMBER~COUNT
link-timed-schedule = `schedule={ $value }` is a timed schedule: the scheduler runs untimed, and its schedules start `u.`
link-steps = `steps={ $value }` is not a number of statements: write a whole number, e.g. `steps=6`
link-view = `view={ $value }` is not a view: write `view=compact` or `view=full`
link-theme = `theme={ $value }` is not a theme: write `theme=light` or `theme=dark`
link-compare-param = `{ $name }` is not a compare parameter: use `left`, `right`, `seed` or `t`
link-toggle-pair = `{ $side }={ $item }` is not a toggle setting: write `name:value`, e.g. `{ $side }=readpast:off`

# A toggle setting that does not fit the lesson (`lesson::SettingsError`), inside
# `link-bad-setting`.
link-unknown-toggle = unknown toggle `{ $name }` (toggles: { $known })
link-unknown-toggle-none = unknown toggle `{ $name }`: this lesson has no toggles
link-not-a-value = `{ $value }` is not a value of toggle `{ $name }` (values: { $values })
